import { type AnyOperation, type JsonSchema, operationInputSchema, operations } from '@cartwright/service';

/**
 * Every node of every operation's input JSON Schema with its path (`/field`, `/*` for items and
 * record values, `/<key>` for record keys; a union's options at their union's path): the one walk
 * behind the schema-wide input checks.
 */
export function* inputSchemaNodes(): Generator<{
  operation: AnyOperation;
  schema: JsonSchema;
  path: string;
}> {
  for (const operation of operations) {
    const pending: [JsonSchema, string][] = [[operationInputSchema(operation), '']];
    for (let item = pending.pop(); item; item = pending.pop()) {
      const [schema, path] = item;
      if (typeof schema !== 'object' || schema === null) continue;
      yield { operation, schema, path };
      for (const [key, value] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
        pending.push([value, `${path}/${key}`]);
      }
      if (schema.items) pending.push([schema.items as JsonSchema, `${path}/*`]);
      if (typeof schema.additionalProperties === 'object') {
        pending.push([schema.additionalProperties as JsonSchema, `${path}/*`]);
      }
      if (schema.propertyNames) pending.push([schema.propertyNames as JsonSchema, `${path}/<key>`]);
      for (const option of (schema.anyOf ?? []) as JsonSchema[]) pending.push([option, path]);
    }
  }
}
