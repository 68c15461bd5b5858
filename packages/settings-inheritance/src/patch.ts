import { type OverrideIssue, refuse, type SettingsResult } from './issues.ts';
import {
  cloneJson,
  isPlainObject,
  type Json,
  type JsonObject,
  jsonEqual,
  jsonPointer,
  ownValue,
  setOwn,
} from './json.ts';
import { normalizeOverrides } from './normalize.ts';
import { childShape, isContainer, type RecordShape, type Shape } from './shape.ts';

/**
 * One edit of a channel's overrides at `path` (field names, map keys and collection ids, never
 * array positions). `set` makes the override at the path exactly `value` (replacing what was
 * there; `null` overrides with null, or removes a collection entry); `inherit` deletes the override
 * so the basis shows through again. Intermediate objects are created as needed.
 */
export type PatchOperation =
  | { readonly op: 'set'; readonly path: readonly string[]; readonly value: Json }
  | { readonly op: 'inherit'; readonly path: readonly string[] };

/** Operations applied in order. */
export type SettingsPatch = readonly PatchOperation[];

/**
 * The overrides after `patch`, normalized (`normalizeOverrides`), as a new object; the input is not
 * touched. Applying the same patch twice gives the same result as once. A path that continues past
 * a leaf is refused with `INVALID_OVERRIDE` (leaves are replaced whole, so an edit inside one would
 * silently drop the rest of the basis value), as is setting the whole document to a non-object;
 * the first refused operation decides. Paths into unknown or basis-only fields are applied;
 * `validateOverrides` then reports them with their pointers.
 */
export function applyPatch(
  shape: RecordShape,
  overrides: JsonObject,
  patch: SettingsPatch,
): SettingsResult<JsonObject> {
  let document = cloneJson(normalizeOverrides(shape, overrides)) as Record<string, Json>;
  for (const operation of patch) {
    const refused = checkPath(shape, operation);
    if (refused) return refuse([refused]);
    const { path } = operation;
    if (path.length === 0) {
      if (operation.op === 'inherit') document = {};
      else if (isPlainObject(operation.value)) document = cloneJson(operation.value) as Record<string, Json>;
      else return refuse([invalid(operation, 'The whole overrides document can only be set to an object.')]);
      continue;
    }
    let parent = document;
    for (const key of path.slice(0, -1)) {
      const next = ownValue(parent, key);
      if (isPlainObject(next)) {
        parent = next as Record<string, Json>;
      } else if (operation.op === 'inherit') {
        parent = {};
        break;
      } else {
        const created: Record<string, Json> = {};
        setOwn(parent, key, created);
        parent = created;
      }
    }
    const last = path[path.length - 1]!;
    if (operation.op === 'set') setOwn(parent, last, cloneJson(operation.value));
    else delete parent[last];
  }
  return { ok: true, value: normalizeOverrides(shape, document) };
}

/**
 * The patch that, applied after `patch`, restores `overrides` exactly (in normalized form), and so
 * also the effective settings. An audit trail stores it next to the patch to offer an undo. Refuses
 * exactly when `applyPatch` refuses `patch`.
 */
export function invertPatch(
  shape: RecordShape,
  overrides: JsonObject,
  patch: SettingsPatch,
): SettingsResult<PatchOperation[]> {
  const patched = applyPatch(shape, overrides, patch);
  if (!patched.ok) return patched;
  return { ok: true, value: diffOverrides(shape, patched.value, overrides) };
}

/**
 * The smallest patch along the shape that turns `from` into `to` (both normalized first): `inherit`
 * for overrides that disappear, `set` for new or changed values. Leaves are compared whole and
 * collections entry by entry, so the paths name the changed field of an entry by its id — the form
 * an event or audit entry wants. The operations address disjoint paths; their order is
 * deterministic (`from`'s keys, then `to`'s).
 */
export function diffOverrides(shape: RecordShape, from: JsonObject, to: JsonObject): PatchOperation[] {
  const operations: PatchOperation[] = [];
  diffAt(shape, normalizeOverrides(shape, from), normalizeOverrides(shape, to), [], operations);
  return operations;
}

function diffAt(
  shape: Shape | undefined,
  from: Json,
  to: Json,
  path: readonly string[],
  operations: PatchOperation[],
): void {
  if (!isContainer(shape) || !isPlainObject(from) || !isPlainObject(to)) {
    if (!jsonEqual(from, to)) operations.push({ op: 'set', path, value: cloneJson(to) });
    return;
  }
  for (const key of Object.keys(from)) {
    if (ownValue(to, key) === undefined) operations.push({ op: 'inherit', path: [...path, key] });
  }
  for (const [key, value] of Object.entries(to)) {
    if (value === undefined) continue;
    const before = ownValue(from, key);
    if (before === undefined) operations.push({ op: 'set', path: [...path, key], value: cloneJson(value) });
    else diffAt(childShape(shape, key), before, value, [...path, key], operations);
  }
}

/**
 * The issue of a path that descends below a leaf, else null (unknown and basis-only positions are
 * left to validation).
 */
function checkPath(shape: RecordShape, operation: PatchOperation): OverrideIssue | null {
  let position: Shape | undefined = shape;
  for (const key of operation.path) {
    if (position?.kind === 'leaf') {
      return invalid(operation, 'The path continues inside a value that is replaced whole.');
    }
    position = childShape(position, key);
  }
  return null;
}

function invalid(operation: PatchOperation, message: string): OverrideIssue {
  return { code: 'INVALID_OVERRIDE', pointer: jsonPointer(operation.path), message };
}
