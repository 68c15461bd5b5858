import type { OverrideIssue } from './issues.ts';
import { isPlainObject, type Json, type JsonObject, jsonPointer, ownValue } from './json.ts';
import { normalizeOverrides } from './normalize.ts';
import { type CollectionShape, childShape, type MapShape, type RecordShape, type Shape } from './shape.ts';

/**
 * Every structural issue of `overrides` against `shape` and the shop's `basis`, in document order;
 * empty when the document can be resolved. Collection ids are checked against the basis, so a
 * document valid today can become invalid when the basis deletes an entry the channel overrides.
 * Empty objects are ignored (they mean "inherit"). Value types are not checked here: the service
 * validates values with its own schemas. Never throws.
 */
export function validateOverrides(
  shape: RecordShape,
  basis: JsonObject,
  overrides: JsonObject,
): OverrideIssue[] {
  const issues: OverrideIssue[] = [];
  if (!isPlainObject(overrides)) {
    return [{ code: 'INVALID_OVERRIDE', pointer: '', message: 'The overrides must be an object.' }];
  }
  checkObject(shape, basis, normalizeOverrides(shape, overrides), [], issues);
  return issues;
}

function checkAt(
  shape: Shape | undefined,
  basis: Json | undefined,
  override: Json,
  path: readonly string[],
  issues: OverrideIssue[],
): void {
  const pointer = jsonPointer(path);
  switch (shape?.kind) {
    case undefined:
      issues.push({ code: 'UNKNOWN_FIELD', pointer, message: 'The settings have no such field.' });
      return;
    case 'basisOnly':
      issues.push({
        code: 'BASIS_ONLY',
        pointer,
        message: 'This belongs to the shared basis of the shop and cannot be overridden per channel.',
      });
      return;
    case 'leaf':
      return;
    case 'record':
    case 'map':
      if (override === null) return;
      if (!isPlainObject(override)) {
        issues.push({
          code: 'INVALID_OVERRIDE',
          pointer,
          message: 'Expected an object of the fields to override, or null.',
        });
        return;
      }
      checkObject(shape, basis, override, path, issues);
      return;
    case 'collection':
      if (!isPlainObject(override)) {
        issues.push({
          code: 'INVALID_OVERRIDE',
          pointer,
          message: 'Expected an object of entry overrides keyed by id (null one entry to remove it).',
        });
        return;
      }
      checkEntries(shape, basis, override, path, issues);
      return;
  }
}

function checkObject(
  shape: RecordShape | MapShape,
  basis: Json | undefined,
  override: JsonObject,
  path: readonly string[],
  issues: OverrideIssue[],
): void {
  const base = isPlainObject(basis) ? basis : {};
  for (const [key, value] of Object.entries(override)) {
    if (value !== undefined)
      checkAt(childShape(shape, key), ownValue(base, key), value, [...path, key], issues);
  }
}

function checkEntries(
  shape: CollectionShape,
  basis: Json | undefined,
  override: JsonObject,
  path: readonly string[],
  issues: OverrideIssue[],
): void {
  const base = isPlainObject(basis) ? basis : {};
  for (const [id, entry] of Object.entries(override)) {
    if (entry === undefined) continue;
    const pointer = jsonPointer([...path, id]);
    const basisEntry = ownValue(base, id);
    if (entry !== null && !isPlainObject(entry)) {
      issues.push({
        code: 'INVALID_OVERRIDE',
        pointer,
        message: 'Expected an object of the entry fields to override, or null to remove the entry.',
      });
    } else if (basisEntry === undefined && entry === null) {
      issues.push({ code: 'UNKNOWN_ID', pointer, message: 'The basis has no entry with this id to remove.' });
    } else if (basisEntry === undefined && !shape.additions) {
      issues.push({
        code: 'UNKNOWN_ID',
        pointer,
        message: 'The basis has no entry with this id, and a channel cannot add entries here.',
      });
    } else if (entry !== null) {
      checkObject(shape.entry, basisEntry, entry, [...path, id], issues);
    }
  }
}
