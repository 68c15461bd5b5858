import { refuse, type SettingsResult } from './issues.ts';
import {
  cloneJson,
  isPlainObject,
  type Json,
  type JsonObject,
  jsonPointer,
  ownValue,
  setOwn,
} from './json.ts';
import { normalizeOverrides } from './normalize.ts';
import { childShape, isContainer, type RecordShape, type Shape } from './shape.ts';
import { validateOverrides } from './validate.ts';

/**
 * Where a value of the effective settings comes from: the shop's basis, the channel's override
 * (an explicit `null` included), or nowhere because the channel removed the collection entry.
 */
export type Provenance = 'inherited' | 'overridden' | 'removed';

/**
 * JSON pointer → provenance, one flat object so an admin form can look up any field directly.
 * It names every leaf of the effective settings (and every value the walk cannot descend into, such
 * as a null record), every collection entry, and every removed entry (absent from `effective`).
 */
export type ProvenanceMap = Readonly<Record<string, Provenance>>;

/** A channel's settings as they apply, and where each of their values comes from. */
export interface ResolvedSettings {
  readonly effective: JsonObject;
  readonly provenance: ProvenanceMap;
}

/**
 * The channel's effective settings: the basis with the overrides applied (an absent key inherits,
 * `null` overrides with null, `null` for a collection entry removes it, an added entry comes whole
 * from the overrides). Fields the basis has beyond the shape pass through as inherited. Results
 * are fresh objects. Refuses (`SettingsRefusal`, never throws) when `validateOverrides` reports
 * issues, e.g. stored overrides of an entry the basis has since lost.
 */
export function resolveSettings(
  shape: RecordShape,
  basis: JsonObject,
  overrides: JsonObject,
): SettingsResult<ResolvedSettings> {
  const [first, ...rest] = validateOverrides(shape, basis, overrides);
  if (first) return refuse([first, ...rest]);
  const provenance: Record<string, Provenance> = {};
  const effective = resolveAt(shape, basis, normalizeOverrides(shape, overrides), [], provenance);
  return { ok: true, value: { effective: isPlainObject(effective) ? effective : {}, provenance } };
}

function resolveAt(
  shape: Shape | undefined,
  basis: Json | undefined,
  override: Json | undefined,
  path: readonly string[],
  provenance: Record<string, Provenance>,
): Json | undefined {
  if (override === undefined) {
    if (basis === undefined) return undefined;
    if (!isContainer(shape) || !isPlainObject(basis)) {
      setOwn(provenance, jsonPointer(path), 'inherited');
      return cloneJson(basis);
    }
  } else if (!isContainer(shape) || override === null) {
    // Validated input: a leaf, or a null record or map (a collection override is never null).
    setOwn(provenance, jsonPointer(path), 'overridden');
    return cloneJson(override);
  }
  const base = isPlainObject(basis) ? basis : {};
  const over = isPlainObject(override) ? override : {};
  const keys = new Set([...Object.keys(base), ...Object.keys(over)]);
  const effective: Record<string, Json> = {};
  for (const key of keys) {
    const childPath = [...path, key];
    const childOverride = ownValue(over, key);
    if (shape.kind === 'collection' && (childOverride !== undefined || ownValue(base, key) !== undefined)) {
      const entry =
        childOverride === undefined ? 'inherited' : childOverride === null ? 'removed' : 'overridden';
      setOwn(provenance, jsonPointer(childPath), entry);
      if (entry === 'removed') continue;
    }
    const value = resolveAt(
      childShape(shape, key),
      ownValue(base, key),
      childOverride,
      childPath,
      provenance,
    );
    if (value !== undefined) setOwn(effective, key, value);
  }
  return effective;
}
