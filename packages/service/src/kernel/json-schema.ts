import { type JsonSchema, toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { type AnyOperation, STAFF_STORE_INPUT } from './registry.ts';

export type { JsonSchema };

/**
 * JSON Schema of a valibot schema, as a caller sends it (`input`) or as the service answers
 * (`output`). Transformations such as trimming have no JSON Schema form and are left out.
 */
export function jsonSchemaOf(schema: v.GenericSchema, direction: 'input' | 'output'): JsonSchema {
  const converted = toJsonSchema(schema, { errorMode: 'ignore', typeMode: direction });
  const { $schema: _, ...rest } = converted;
  return rest;
}

/** The input schema of an operation (path parameters, query and body merged into one object). */
export function operationInputSchema(operation: AnyOperation): JsonSchema {
  return jsonSchemaOf(operation.input, 'input');
}

export function operationOutputSchema(operation: AnyOperation): JsonSchema {
  return jsonSchemaOf(operation.output, 'output');
}

/**
 * The input staff give an operation (MCP tools): a storefront operation also takes the channel
 * (`channelId`, default the main channel) and the visitor's `contextToken`.
 */
export function staffInputSchema(operation: AnyOperation): JsonSchema {
  const schema = operationInputSchema(operation);
  if (operation.audience !== 'store') return schema;
  const extra = jsonSchemaOf(STAFF_STORE_INPUT, 'input');
  return { ...schema, properties: { ...(schema.properties ?? {}), ...(extra.properties ?? {}) } };
}
