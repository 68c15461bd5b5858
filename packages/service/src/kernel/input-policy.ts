import type * as v from 'valibot';
import { type Failure, type FieldError, fail } from './errors.ts';

// Node ≥ 20 has `String.prototype.isWellFormed` (ES2024); the shared tsconfig targets ES2023.
declare global {
  interface String {
    isWellFormed(): boolean;
  }
}

/**
 * What every operation input meets at the registry's door before its schema runs, whatever the
 * transport (decision 0025). The walk is iterative and stops at the first bound it crosses, so
 * nothing recursive (valibot, `JSON.stringify`, the database driver) ever sees a deeper or larger
 * input than these.
 */
export const INPUT_LIMITS = {
  /**
   * Deepest value: its JSON pointer has at most this many segments. A maximal condition tree (32
   * levels, two JSON levels each) inside a flow or the serialized import form needs about 100.
   */
  depth: 128,
  /** Most values (objects, arrays, strings, numbers, booleans, nulls) in one input. */
  values: 100_000,
  /** Longest string or member name, in UTF-16 code units, unless the schema allows a longer one. */
  stringLength: 1024 * 1024,
} as const;

/** Most field errors one refusal lists (a body of a thousand NULs names the first few). */
const MAX_ERRORS = 20;

/** `/a/b~1c` from segments: `~` and `/` escaped as RFC 6901 says. */
function pointerOf(segments: readonly (string | number)[]): string {
  return segments
    .map((segment) => `/${String(segment).replaceAll('~', '~0').replaceAll('/', '~1')}`)
    .join('');
}

interface Visit {
  readonly value: unknown;
  readonly parent: Visit | null;
  /** The member name (a string) or array index (a number) in `parent`. */
  readonly key: string | number;
  readonly depth: number;
}

function segmentsOf(visit: Visit): (string | number)[] {
  const segments: (string | number)[] = [];
  for (let at: Visit | null = visit; at?.parent; at = at.parent) segments.push(at.key);
  return segments.reverse();
}

function pointerTo(visit: Visit): string {
  return pointerOf(segmentsOf(visit));
}

/** The longest string allowed at `visit`: the default, or more where `longStrings` says so. */
function allowedLength(visit: Visit, longStrings: readonly LongString[]): number {
  let allowed: number = INPUT_LIMITS.stringLength;
  if (longStrings.length === 0) return allowed;
  const segments = segmentsOf(visit);
  for (const long of longStrings) {
    const matches =
      long.path.length === segments.length &&
      long.path.every((segment, index) => segment === null || segment === String(segments[index]));
    if (matches) allowed = Math.max(allowed, long.maxLength);
  }
  return allowed;
}

/** Why a text cannot be stored as it is (PostgreSQL refuses NUL; JSON and UTF-8 lone surrogates), or null. */
function textProblem(text: string, maxLength: number): string | null {
  if (text.length > maxLength) return `longer than ${maxLength} characters`;
  const nul = text.indexOf('\u0000');
  if (nul >= 0) return `contains a NUL character (U+0000) at index ${nul}`;
  if (text.isWellFormed()) return null;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        index += 1;
        continue;
      }
    } else if (unit < 0xdc00 || unit > 0xdfff) continue;
    return `contains a lone surrogate (U+${unit.toString(16).toUpperCase()}) at index ${index}`;
  }
  return null;
}

/**
 * Checks a raw input against the policy: depth, number of values, every string and member name
 * (no NUL, no lone surrogate, no longer than `INPUT_LIMITS.stringLength` unless `longStrings`
 * allows more at its path) and every number (finite). Answers null when it passes. Too deep is
 * 422 `VALIDATION_FAILED`, too many values 413 `PAYLOAD_TOO_LARGE`, each with the pointer where
 * the bound was crossed and `limit`/`max`; text and numbers are 422 with a pointer each.
 */
export function checkInputPolicy(input: unknown, longStrings: readonly LongString[] = []): Failure | null {
  const errors: FieldError[] = [];
  const stack: Visit[] = [{ value: input, parent: null, key: '', depth: 0 }];
  let values = 1;
  let lengthRefused: number | null = null;
  const refuse = (pointer: string, message: string) => {
    if (errors.length < MAX_ERRORS) errors.push({ pointer, message });
  };
  const checkText = (visit: Visit, text: string, what: string, maxLength: number) => {
    const problem = textProblem(text, maxLength);
    if (!problem) return;
    if (text.length > maxLength) lengthRefused ??= maxLength;
    refuse(pointerTo(visit), `${what}${problem}`);
  };
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    const { value, depth } = visit;
    if (typeof visit.key === 'string' && visit.parent) {
      checkText(visit, visit.key, 'the member name ', INPUT_LIMITS.stringLength);
    }
    if (typeof value === 'string') {
      const longer = value.length > INPUT_LIMITS.stringLength;
      checkText(visit, value, '', longer ? allowedLength(visit, longStrings) : INPUT_LIMITS.stringLength);
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) refuse(pointerTo(visit), 'not a finite number');
    } else if (typeof value === 'object' && value !== null) {
      const keys: readonly (string | number)[] | null = Array.isArray(value) ? null : Object.keys(value);
      const count = keys ? keys.length : (value as unknown[]).length;
      if (count === 0) continue;
      const keyAt = (index: number) => (keys ? keys[index]! : index);
      const childAt = (index: number): Visit => ({
        value: (value as Record<string | number, unknown>)[keyAt(index)],
        parent: visit,
        key: keyAt(index),
        depth: depth + 1,
      });
      if (depth + 1 > INPUT_LIMITS.depth) {
        return fail('VALIDATION_FAILED', `The input nests deeper than ${INPUT_LIMITS.depth} levels.`, {
          errors: [
            { pointer: pointerTo(childAt(0)), message: `nested deeper than ${INPUT_LIMITS.depth} levels` },
          ],
          extensions: { limit: 'depth', max: INPUT_LIMITS.depth },
        });
      }
      if (values + count > INPUT_LIMITS.values) {
        return fail('PAYLOAD_TOO_LARGE', `The input holds more than ${INPUT_LIMITS.values} values.`, {
          errors: [
            {
              pointer: pointerTo(childAt(INPUT_LIMITS.values - values)),
              message: `more than ${INPUT_LIMITS.values} values`,
            },
          ],
          extensions: { limit: 'values', max: INPUT_LIMITS.values },
        });
      }
      values += count;
      // Pushed in reverse, so values are visited (and reported) in document order.
      for (let index = count - 1; index >= 0; index -= 1) stack.push(childAt(index));
    }
  }
  if (errors.length === 0) return null;
  return fail('VALIDATION_FAILED', 'The input holds text or numbers the service cannot store.', {
    errors,
    ...(lengthRefused === null ? {} : { extensions: { limit: 'stringLength', max: lengthRefused } }),
  });
}

/** Where a schema allows strings longer than the policy's default: a path (null: any key or index). */
export interface LongString {
  readonly path: readonly (string | null)[];
  readonly maxLength: number;
}

const longStringsBySchema = new WeakMap<v.GenericSchema, readonly LongString[]>();

/**
 * The strings `schema` allows to be longer than the policy's default (`v.maxLength` above it on
 * a string), by path: the door lets a longer string through only where the schema asks for one
 * (an asset upload's base64).
 */
export function longStringsOf(schema: v.GenericSchema): readonly LongString[] {
  const known = longStringsBySchema.get(schema);
  if (known) return known;
  const found: LongString[] = [];
  // valibot schemas are trees (shared nodes, no cycles: `v.lazy` getters are not followed).
  const visit = (node: unknown, path: readonly (string | null)[]) => {
    if (typeof node !== 'object' || node === null) return;
    const schemaNode = node as Record<string, unknown>;
    if (schemaNode.kind !== 'schema') return;
    if (schemaNode.type === 'string' && Array.isArray(schemaNode.pipe)) {
      for (const action of schemaNode.pipe as { type?: unknown; requirement?: unknown }[]) {
        if (
          action.type === 'max_length' &&
          typeof action.requirement === 'number' &&
          action.requirement > INPUT_LIMITS.stringLength
        ) {
          found.push({ path, maxLength: action.requirement });
        }
      }
    }
    const { entries, item, wrapped, options, value, items, rest } = schemaNode;
    if (entries && typeof entries === 'object') {
      for (const [key, entry] of Object.entries(entries)) visit(entry, [...path, key]);
    }
    if (Array.isArray(items)) {
      for (const [index, entry] of items.entries()) visit(entry, [...path, String(index)]);
    }
    for (const child of [item, value, rest]) visit(child, [...path, null]);
    visit(wrapped, path);
    if (Array.isArray(options)) for (const option of options) visit(option, path);
  };
  visit(schema, []);
  longStringsBySchema.set(schema, found);
  return found;
}
