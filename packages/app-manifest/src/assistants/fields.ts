import * as v from 'valibot';
import type { ActionContract } from '../contracts.ts';
import { RESERVED_FIELD_NAMES } from '../rules/fields.ts';
import { type CoreReferenceKind, type EntityField, Id, MANIFEST_LIMITS, type ShapeField } from '../schema.ts';
import { secretStemOf } from '../secrets.ts';
import type { ReportAnswer, Text } from './definition.ts';
import { OBJECT_LABELS } from './labels.ts';

const L = MANIFEST_LIMITS;

/** At most this many fields per answer: an assistant starts an app, the manifest can grow later. */
export const ANSWER_FIELDS_MAX = 20;

// Core objects' ids are UUIDs (36 characters with hyphens).
const UUID_LENGTH = 36;

/** An answer of 1-`max` characters. */
export function boundedText(max: number) {
  return v.pipe(v.string(), v.minLength(1), v.maxLength(max));
}

const fieldEntries = {
  name: Id,
  label: boundedText(L.labelLength),
  required: v.optional(v.boolean(), false),
};

/** A field as the merchant describes it: a name, one of the plain types, a label. */
export const FieldAnswer = v.variant('type', [
  v.strictObject({
    ...fieldEntries,
    type: v.picklist(['string', 'text', 'integer', 'number', 'boolean', 'date']),
  }),
  v.strictObject({
    ...fieldEntries,
    type: v.literal('choice'),
    choices: v.pipe(v.array(boundedText(L.choiceValueLength)), v.minLength(1), v.maxLength(L.choices)),
  }),
]);
export type FieldAnswer = v.InferOutput<typeof FieldAnswer>;

/** `min`-20 fields. */
export function fieldAnswers(min: number) {
  return v.pipe(v.array(FieldAnswer), v.minLength(min), v.maxLength(ANSWER_FIELDS_MAX));
}

/** How a field answer is explained, after what the fields are for. */
export const FIELD_FORMAT: Text = {
  en: 'Each field is {name, type, label, required?}: name is an id (lowercase letters, digits, _), type one of string, text, integer, number, boolean, date, choice; a choice field also lists its values in choices.',
  de: 'Jedes Feld ist {name, type, label, required?}: name ist eine ID (Kleinbuchstaben, Ziffern, _), type einer von string, text, integer, number, boolean, date, choice; ein Auswahlfeld nennt seine Werte zudem in choices.',
  es: 'Cada campo es {name, type, label, required?}: name es un id (minúsculas, dígitos, _), type uno de string, text, integer, number, boolean, date, choice; un campo de elección enumera además sus valores en choices.',
  fr: 'Chaque champ est {name, type, label, required?} : name est un identifiant (minuscules, chiffres, _), type l’un de string, text, integer, number, boolean, date, choice ; un champ à choix liste aussi ses valeurs dans choices.',
};

export interface FieldRules {
  /** Entity fields are stored rows (the service's own columns are taken); shape fields are an input. */
  readonly kind: 'entity' | 'shape';
  /** Names the assistant declares itself beside the answered fields. */
  readonly taken: readonly string[];
}

/**
 * What `parseManifest` would refuse in answered fields, reported at the answer: a name used twice or
 * by the assistant, a service column, a credential-like name, a choice listed twice.
 */
export function checkFieldAnswers(
  fields: readonly FieldAnswer[],
  pointer: string,
  rules: FieldRules,
  report: ReportAnswer,
): void {
  const seen = new Set<string>();
  fields.forEach((field, index) => {
    const at = `${pointer}/${index}/name`;
    const stem = secretStemOf(field.name);
    if (seen.has(field.name)) report(at, `field "${field.name}" is answered twice`);
    else if (rules.taken.includes(field.name)) {
      report(at, `"${field.name}" is a field the assistant declares itself`);
    } else if (rules.kind === 'entity' && (RESERVED_FIELD_NAMES as readonly string[]).includes(field.name)) {
      report(at, `"${field.name}" is a column the service keeps on every row`);
    } else if (stem) {
      report(
        at,
        `"${field.name}" looks like a credential or security setting ("${stem}"); app data may not hold one`,
      );
    }
    seen.add(field.name);
    if (field.type !== 'choice') return;
    const values = new Set<string>();
    field.choices.forEach((value, position) => {
      if (values.has(value))
        report(`${pointer}/${index}/choices/${position}`, `choice "${value}" is listed twice`);
      values.add(value);
    });
  });
}

/** An entity id the rules would refuse for its name, reported at `pointer`. */
export function checkEntityId(id: string, pointer: string, report: ReportAnswer): void {
  const stem = secretStemOf(id);
  if (stem) {
    report(
      pointer,
      `"${id}" looks like it holds credentials or security settings ("${stem}"); app data may not`,
    );
  }
}

export type ShapeFieldDraft = v.InferInput<typeof ShapeField>;
export type EntityFieldDraft = v.InferInput<typeof EntityField>;

/** The manifest field of an answered field (an entity's or an input's: neither is indexable). */
export function manifestField(field: FieldAnswer): ShapeFieldDraft {
  const common = { name: field.name, label: { en: field.label }, required: field.required };
  if (field.type !== 'choice') return { ...common, type: field.type };
  return {
    ...common,
    type: 'choice',
    choices: field.choices.map((value) => ({ value, label: { en: value } })),
  };
}

/** `<object>_id`: the id of a product, customer or order of the shop, filterable. */
export function objectIdField(object: CoreReferenceKind, required: boolean): EntityFieldDraft {
  return {
    name: objectIdName(object),
    type: 'string',
    maxLength: UUID_LENGTH,
    required,
    indexable: true,
    coreReference: object,
    label: OBJECT_LABELS[object],
  };
}

export function objectIdName(object: CoreReferenceKind): string {
  return `${object}_id`;
}

/** The same field as a service action's input (no `indexable` there). */
export function objectIdInput(object: CoreReferenceKind): ShapeFieldDraft {
  return {
    name: objectIdName(object),
    type: 'string',
    maxLength: UUID_LENGTH,
    required: true,
    coreReference: object,
    label: OBJECT_LABELS[object],
  };
}

/** The fields a payment or shipping contract names, declared exactly as the contract has them. */
export function contractFields(fields: ActionContract['input']): ShapeFieldDraft[] {
  return fields.map((field): ShapeFieldDraft => {
    const common = { name: field.name, required: field.required };
    switch (field.type) {
      case 'string':
        return { ...common, type: 'string', ...(field.maxLength ? { maxLength: field.maxLength } : {}) };
      case 'integer':
        return { ...common, type: 'integer' };
      default:
        throw new TypeError(`no assistant declares a contract field of type ${field.type}`);
    }
  });
}
