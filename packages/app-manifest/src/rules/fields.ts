import { CORE_REFERENCE_PERMISSION, PRIVATE_CORE_REFERENCES } from '../access.ts';
import type { ReportIssue } from '../issues.ts';
import type { AppPermission, Entity, Field, ListItem } from '../schema.ts';
import { secretStemOf } from '../secrets.ts';
import { reportDuplicates } from './duplicates.ts';

// Core objects' ids are UUIDs (36 characters with hyphens).
const UUID_LENGTH = 36;

/** Column names the service keeps on every row of an entity. */
export const RESERVED_FIELD_NAMES = ['id', 'revision', 'created_at', 'updated_at'] as const;

export interface FieldContext {
  /** Entity fields are stored rows; shape fields are a service action's input or output. */
  readonly kind: 'entity' | 'shape';
  /** The declared entities, or null when that section is invalid (reference checks wait). */
  readonly entities: ReadonlyMap<string, Entity> | null;
  /** The declared permissions, or null when that section is invalid. */
  readonly permissions: ReadonlySet<AppPermission> | null;
  /** Set when the fields are public (a publicRead entity, a public action): says which. */
  readonly publicAs: string | null;
}

function checkType(type: Field | ListItem, pointer: string, context: FieldContext, report: ReportIssue) {
  switch (type.type) {
    case 'integer':
    case 'number':
      if (type.min !== undefined && type.max !== undefined && type.min > type.max) {
        report('MANIFEST_INVALID', `${pointer}/max`, `max ${type.max} is below min ${type.min}`);
      }
      return;
    case 'choice':
      reportDuplicates(
        type.choices.map((choice) => choice.value),
        (index) => `${pointer}/choices/${index}/value`,
        'choice',
        report,
      );
      return;
    case 'reference':
      if (context.entities && !context.entities.has(type.entity)) {
        report('MANIFEST_UNKNOWN_REFERENCE', `${pointer}/entity`, `no entity "${type.entity}" in this app`);
      }
      return;
    case 'list':
      checkType(type.items, `${pointer}/items`, context, report);
      return;
  }
}

/**
 * The rules every list of declared fields follows, whether an entity's or a service action's
 * input or output: unique names, no credential-like names, sound bounds, known entities, and
 * core references only where they are allowed and asked for.
 */
export function checkFields(
  fields: readonly Field[],
  pointer: string,
  context: FieldContext,
  report: ReportIssue,
): void {
  reportDuplicates(
    fields.map((field) => field.name),
    (index) => `${pointer}/${index}/name`,
    'field',
    report,
  );
  fields.forEach((field, index) => {
    const at = `${pointer}/${index}`;
    const stem = secretStemOf(field.name);
    if (stem) {
      report(
        'MANIFEST_SECRET_FIELD',
        `${at}/name`,
        `"${field.name}" looks like a credential or security setting ("${stem}"); app data may not hold one`,
      );
    }
    if (context.kind === 'entity' && (RESERVED_FIELD_NAMES as readonly string[]).includes(field.name)) {
      report(
        'MANIFEST_RESERVED_NAME',
        `${at}/name`,
        `"${field.name}" is a column the service keeps on every row`,
      );
    }
    checkType(field, at, context, report);
    if (field.type !== 'string' || !field.coreReference) return;
    const core = field.coreReference;
    if (field.maxLength < UUID_LENGTH) {
      report(
        'MANIFEST_CORE_REFERENCE_FIELD',
        `${at}/maxLength`,
        `a core reference holds an id of ${UUID_LENGTH} characters; maxLength ${field.maxLength} is too short`,
      );
    }
    if (context.kind === 'entity' && !field.required && !('indexable' in field && field.indexable)) {
      report(
        'MANIFEST_CORE_REFERENCE_FIELD',
        `${at}/coreReference`,
        'a core reference is held by a required or indexable field',
      );
    }
    const permission = CORE_REFERENCE_PERMISSION[core];
    if (context.permissions && !context.permissions.has(permission)) {
      report(
        'MANIFEST_PERMISSION_MISSING',
        `${at}/coreReference`,
        `a ${core} reference needs the permission ${permission}`,
      );
    }
    if (context.publicAs && PRIVATE_CORE_REFERENCES.includes(core)) {
      report(
        'MANIFEST_PUBLIC_REFERENCE',
        `${at}/coreReference`,
        `${context.publicAs} may not hold ${core} references`,
      );
    }
  });
}
