import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MANIFEST_SCHEMA_PATH, manifestJsonSchema } from '../scripts/manifest-json-schema.ts';

describe('the published manifest JSON Schema', () => {
  it('equals the one generated from the schema (run `pnpm --filter @cartwright/app-manifest docs:schema` after a change)', () => {
    const file = new URL(`../../../${MANIFEST_SCHEMA_PATH}`, import.meta.url);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(manifestJsonSchema());
  });

  it('states a maximum length for every string and both bounds for every integer (the input policy)', () => {
    const unbounded: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const schema = node as Record<string, unknown>;
      const isEnum = Array.isArray(schema.enum) || 'const' in schema;
      if (schema.type === 'string' && schema.maxLength === undefined && !isEnum) unbounded.push(path);
      if (schema.type === 'integer' && (schema.minimum === undefined || schema.maximum === undefined))
        unbounded.push(path);
      for (const [key, child] of Object.entries(schema)) walk(child, `${path}/${key}`);
    };
    walk(manifestJsonSchema(), '');
    expect(unbounded).toEqual([]);
  });
});
