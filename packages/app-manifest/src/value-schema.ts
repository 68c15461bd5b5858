import type { Field, ListItem } from './schema.ts';

/** A JSON Schema (draft 2020-12) object, as the service's tool and API documents carry them. */
export type ValueJsonSchema = { readonly [key: string]: unknown };

const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** The schema of one non-null value of a type (what `checkValue` accepts for it). */
function typeSchema(type: Field | ListItem): Record<string, unknown> {
  switch (type.type) {
    case 'string':
      return 'coreReference' in type && type.coreReference
        ? { type: 'string', maxLength: type.maxLength, pattern: UUID_PATTERN }
        : { type: 'string', maxLength: type.maxLength, pattern: '^[^\\r\\n]*$' };
    case 'text':
      return { type: 'string', maxLength: type.maxLength };
    case 'integer':
    case 'number':
      return {
        type: type.type,
        ...(type.min !== undefined ? { minimum: type.min } : {}),
        ...(type.max !== undefined ? { maximum: type.max } : {}),
      };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'choice':
      return { type: 'string', enum: type.choices.map((choice) => choice.value) };
    case 'reference':
      return { type: 'string', pattern: UUID_PATTERN };
    case 'list':
      return { type: 'array', items: typeSchema(type.items), maxItems: type.maxItems };
  }
}

/** The schema of one field: its type, or null unless it is required. */
export function fieldJsonSchema(field: Field): ValueJsonSchema {
  const schema = typeSchema(field);
  const described = {
    ...(field.label?.en ? { title: field.label.en } : {}),
    ...(field.description?.en ? { description: field.description.en } : {}),
  };
  return field.required ? { ...schema, ...described } : { anyOf: [schema, { type: 'null' }], ...described };
}

/**
 * The JSON Schema of an object of typed fields (a service action's input or output, an entity's
 * row): the documentation form of `checkValue`. `partial` leaves every field optional (a patch).
 */
export function shapeJsonSchema(
  shape: readonly Field[],
  options: { readonly partial?: boolean } = {},
): ValueJsonSchema {
  const required = options.partial ? [] : shape.filter((field) => field.required).map((field) => field.name);
  return {
    type: 'object',
    properties: Object.fromEntries(shape.map((field) => [field.name, fieldJsonSchema(field)])),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}
