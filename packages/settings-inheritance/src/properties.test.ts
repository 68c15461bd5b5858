import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHANNEL_SETTINGS_SHAPE } from './channel-settings.ts';
import type { SettingsResult } from './issues.ts';
import { isPlainObject, type Json, type JsonObject, jsonPointer } from './json.ts';
import { normalizeOverrides } from './normalize.ts';
import { applyPatch, diffOverrides, invertPatch, type PatchOperation } from './patch.ts';
import { type ResolvedSettings, resolveSettings } from './resolve.ts';
import { childShape, isContainer, type RecordShape, type Shape } from './shape.ts';
import { validateOverrides } from './validate.ts';

// Random bases, overrides and patches that follow the shape, kept small (a few keys per map and
// collection) so each run resolves in well under a millisecond.

const shape = CHANNEL_SETTINGS_SHAPE;

/** The value of a result a property expects to succeed. */
function succeeded<T>(result: SettingsResult<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${result.detail}`);
  return result.value;
}

const resolve = (basis: JsonObject, overrides: JsonObject): ResolvedSettings =>
  succeeded(resolveSettings(shape, basis, overrides));
const applied = (overrides: JsonObject, patch: readonly PatchOperation[]): JsonObject =>
  succeeded(applyPatch(shape, overrides, patch));
const MAP_KEYS = ['en', 'de', 'default'];
const IDS = ['a', 'b', 'c'];
const NEW_IDS = ['n1', 'n2'];

const leafValue: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom('x', 'y', ''),
  fc.integer({ min: 0, max: 3000 }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.constantFrom('DE', 'AT', 'CH'), { maxLength: 2 }),
  fc.constant({ street: 'Hauptstr. 1' }),
);

function objectOf(model: Record<string, fc.Arbitrary<Json>>): fc.Arbitrary<JsonObject> {
  return fc.record(model, { requiredKeys: [] });
}

function fieldsOf(shape: RecordShape, arbitrary: (field: Shape, key: string) => fc.Arbitrary<Json> | null) {
  const model: Record<string, fc.Arbitrary<Json>> = {};
  for (const [key, field] of Object.entries(shape.fields)) {
    const value = arbitrary(field, key);
    if (value) model[key] = value;
  }
  return model;
}

/** A basis value of `shape`; records may be null (a basis can hold "no logos"). */
function basisOf(shape: Shape): fc.Arbitrary<Json> {
  switch (shape.kind) {
    case 'leaf':
    case 'basisOnly':
      return leafValue;
    case 'record':
      return fc.oneof(
        { weight: 1, arbitrary: fc.constant(null) },
        { weight: 6, arbitrary: objectOf(fieldsOf(shape, basisOf)) },
      );
    case 'map':
      return fc.dictionary(fc.constantFrom(...MAP_KEYS), basisOf(shape.values), { maxKeys: 2 });
    case 'collection':
      return fc.dictionary(fc.constantFrom(...IDS), objectOf(fieldsOf(shape.entry, basisOf)), { maxKeys: 3 });
  }
}

const entryOf = (object: Json | undefined, key: string): Json | undefined =>
  isPlainObject(object) && Object.hasOwn(object, key) ? object[key] : undefined;

/** A valid override (present, possibly null) at a position of `shape` whose basis value is `basis`. */
function overrideOf(shape: Shape, basis: Json | undefined): fc.Arbitrary<Json> {
  switch (shape.kind) {
    case 'leaf':
    case 'basisOnly':
      return leafValue;
    case 'record':
      return fc.oneof(
        { weight: 1, arbitrary: fc.constant(null) },
        { weight: 5, arbitrary: recordOverride(shape, basis) },
      );
    case 'map': {
      const model: Record<string, fc.Arbitrary<Json>> = {};
      for (const key of MAP_KEYS) model[key] = overrideOf(shape.values, entryOf(basis, key));
      return fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 5, arbitrary: objectOf(model) });
    }
    case 'collection': {
      const model: Record<string, fc.Arbitrary<Json>> = {};
      for (const id of isPlainObject(basis) ? Object.keys(basis) : []) {
        model[id] = fc.oneof(fc.constant(null), recordOverride(shape.entry, entryOf(basis, id)));
      }
      if (shape.additions) for (const id of NEW_IDS) model[id] = objectOf(fieldsOf(shape.entry, basisOf));
      return objectOf(model);
    }
  }
}

function recordOverride(shape: RecordShape, basis: Json | undefined): fc.Arbitrary<JsonObject> {
  return objectOf(
    fieldsOf(shape, (field, key) =>
      field.kind === 'basisOnly' ? null : overrideOf(field, entryOf(basis, key)),
    ),
  );
}

const settings = basisOf(shape)
  .filter(isPlainObject)
  .chain((basis) => recordOverride(shape, basis).map((overrides) => ({ basis, overrides })));

interface Position {
  readonly shape: Shape | undefined;
  readonly basis: Json | undefined;
  readonly path: string[];
}

/** A random position below the root, following the shape (ids from the basis, plus additions). */
function positionOf(
  shape: Shape | undefined,
  basis: Json | undefined,
  path: string[],
): fc.Arbitrary<Position> {
  const here = fc.constant({ shape, basis, path });
  let keys: string[] = [];
  if (shape?.kind === 'record')
    keys = Object.keys(shape.fields).filter((key) => shape.fields[key]?.kind !== 'basisOnly');
  if (shape?.kind === 'map') keys = MAP_KEYS;
  if (shape?.kind === 'collection') {
    keys = [...(isPlainObject(basis) ? Object.keys(basis) : []), ...(shape.additions ? NEW_IDS : [])];
  }
  if (keys.length === 0) return here;
  const descend = fc
    .constantFrom(...keys)
    .chain((key) => positionOf(childShape(shape, key), entryOf(basis, key), [...path, key]));
  return path.length === 0 ? descend : fc.oneof(here, descend);
}

function patchOf(basis: JsonObject): fc.Arbitrary<PatchOperation[]> {
  const operation = positionOf(shape, basis, []).chain(
    ({ shape: position, basis: value, path }): fc.Arbitrary<PatchOperation> =>
      fc.oneof(
        fc.constant<PatchOperation>({ op: 'inherit', path }),
        (position ? overrideOf(position, value) : leafValue).map(
          (set): PatchOperation => ({ op: 'set', path, value: set }),
        ),
      ),
  );
  return fc.array(operation, { maxLength: 4 });
}

const withPatch = settings.chain(({ basis, overrides }) =>
  patchOf(basis).map((patch) => ({ basis, overrides, patch })),
);

/** The value at a JSON pointer, `undefined` when absent. */
function at(value: Json | undefined, pointer: string): Json | undefined {
  if (pointer === '') return value;
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<Json | undefined>((node, key) => entryOf(node, key), value);
}

/** A copy of `document` with `value` at `pointer`; `null` when the pointer's parent is not an object. */
function withValueAt(document: JsonObject, pointer: string, value: Json): JsonObject | null {
  const copy = structuredClone(document) as Record<string, Json>;
  const cut = pointer.lastIndexOf('/');
  const parent = at(copy, pointer.slice(0, cut));
  if (!isPlainObject(parent)) return null;
  (parent as Record<string, Json>)[pointer.slice(cut + 1)] = value;
  return copy;
}

/** The overrides' own verdicts, read independently of `resolveSettings`: pointer → value, or removal. */
function overrideLeaves(
  shape: Shape | undefined,
  override: Json,
  pointer: string,
  out: { pointer: string; value: Json; removed: boolean }[],
): typeof out {
  if (!isContainer(shape) || !isPlainObject(override)) {
    out.push({ pointer, value: override, removed: false });
    return out;
  }
  for (const [key, value] of Object.entries(override)) {
    if (value === undefined) continue;
    if (shape.kind === 'collection' && value === null)
      out.push({ pointer: `${pointer}/${key}`, value, removed: true });
    else overrideLeaves(childShape(shape, key), value, `${pointer}/${key}`, out);
  }
  return out;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

describe('properties over CHANNEL_SETTINGS_SHAPE', () => {
  it('the generated overrides are valid', () => {
    fc.assert(
      fc.property(settings, ({ basis, overrides }) => {
        expect(validateOverrides(shape, basis, overrides)).toEqual([]);
      }),
    );
  });

  it('an id the basis lacks is exactly one UNKNOWN_ID where a channel cannot add entries', () => {
    const collections = ['shippingMethods', 'paymentMethods', 'taxRates', 'taxLabels'];
    fc.assert(
      fc.property(
        settings,
        fc.constantFrom(...collections),
        fc.boolean(),
        ({ basis, overrides }, field, remove) => {
          const patched = applied(overrides, [
            { op: 'set', path: [field, 'zz'], value: remove ? null : { position: 1 } },
          ]);
          expect(validateOverrides(shape, basis, patched)).toEqual([
            { code: 'UNKNOWN_ID', pointer: `/${field}/zz`, message: expect.any(String) },
          ]);
        },
      ),
    );
  });

  it('(a) empty overrides give the basis, all inherited', () => {
    fc.assert(
      fc.property(settings, ({ basis }) => {
        const { effective, provenance } = resolve(deepFreeze(basis), {});
        expect(effective).toEqual(basis);
        for (const [pointer, origin] of Object.entries(provenance)) {
          expect(origin, pointer).toBe('inherited');
          expect(at(effective, pointer), pointer).toEqual(at(basis, pointer));
        }
      }),
    );
  });

  it('(b) overridden values come from the overrides, inherited ones from the basis', () => {
    fc.assert(
      fc.property(settings, ({ basis, overrides }) => {
        const { effective, provenance } = resolve(deepFreeze(basis), deepFreeze(overrides));
        const normalized = normalizeOverrides(shape, overrides);
        for (const { pointer, value, removed } of overrideLeaves(shape, normalized, '', [])) {
          expect(provenance[pointer], pointer).toBe(removed ? 'removed' : 'overridden');
          expect(at(effective, pointer), pointer).toEqual(removed ? undefined : value);
        }
        for (const [pointer, origin] of Object.entries(provenance)) {
          if (origin === 'inherited') {
            expect(at(effective, pointer), pointer).toEqual(at(basis, pointer));
            expect(at(normalized, pointer), pointer).toBeUndefined();
          } else {
            expect(at(normalized, pointer), pointer).not.toBeUndefined();
          }
          if (origin === 'removed') expect(at(effective, pointer), pointer).toBeUndefined();
        }
      }),
    );
  });

  it('(c) the basis shows through where inherited and never where overridden or removed', () => {
    const marker = 'changed in the basis';
    fc.assert(
      fc.property(settings, ({ basis, overrides }) => {
        const { effective, provenance } = resolve(basis, overrides);
        for (const [pointer, origin] of Object.entries(provenance)) {
          const before = at(effective, pointer);
          if (isPlainObject(before)) continue; // an entry (or an object leaf): its fields are checked
          const changed = withValueAt(basis, pointer, origin === 'removed' ? { position: 9 } : marker);
          if (changed === null) continue; // added by the channel: no basis parent to change
          const after = at(resolve(changed, overrides).effective, pointer);
          expect(after, pointer).toEqual(origin === 'inherited' ? marker : before);
        }
      }),
      { numRuns: 50 },
    );
  });

  it('(d) a patch followed by its inverse restores the overrides and the effective settings', () => {
    fc.assert(
      fc.property(withPatch, ({ basis, overrides, patch }) => {
        deepFreeze(patch);
        const patched = applied(deepFreeze(overrides), patch);
        const restored = applied(patched, succeeded(invertPatch(shape, overrides, patch)));
        expect(restored).toEqual(normalizeOverrides(shape, overrides));
        expect(resolve(basis, restored)).toEqual(resolve(basis, overrides));
        // The diff between any two documents is a patch between them.
        expect(applied(overrides, diffOverrides(shape, overrides, patched))).toEqual(patched);
      }),
    );
  });

  it('(e) applying a patch twice equals applying it once, and no input is mutated', () => {
    fc.assert(
      fc.property(withPatch, ({ basis, overrides, patch }) => {
        const snapshot = structuredClone({ basis, overrides, patch });
        const once = applied(overrides, patch);
        expect(applied(once, patch)).toEqual(once);
        expect(invertPatch(shape, overrides, patch).ok).toBe(true);
        diffOverrides(shape, overrides, once);
        validateOverrides(shape, basis, once);
        expect({ basis, overrides, patch }).toEqual(snapshot);
      }),
    );
  });

  it('(f) a path past a leaf is refused as a value naming it, whatever comes before or after', () => {
    const refused = withPatch.chain(({ basis, overrides, patch }) =>
      fc.record({
        basis: fc.constant(basis),
        overrides: fc.constant(overrides),
        before: fc.constant(patch),
        leafPath: positionOf(shape, basis, [])
          .filter((position) => position.shape?.kind === 'leaf')
          .map((position) => position.path),
        tail: fc.array(fc.constantFrom('city', 'de', '0'), { minLength: 1, maxLength: 2 }),
        after: patchOf(basis),
      }),
    );
    fc.assert(
      fc.property(refused, ({ overrides, before, leafPath, tail, after }) => {
        const path = [...leafPath, ...tail];
        const patch: PatchOperation[] = [...before, { op: 'set', path, value: 'x' }, ...after];
        const message = 'The path continues inside a value that is replaced whole.';
        const expected = {
          ok: false,
          code: 'INVALID_OVERRIDE',
          detail: `Invalid settings overrides: INVALID_OVERRIDE at "${jsonPointer(path)}": ${message}`,
          issues: [{ code: 'INVALID_OVERRIDE', pointer: jsonPointer(path), message }],
        };
        expect(applyPatch(shape, deepFreeze(overrides), patch)).toEqual(expected);
        expect(invertPatch(shape, overrides, patch)).toEqual(expected);
      }),
    );
  });
});
