import { readFileSync } from 'node:fs';
import { operations } from '@cartwright/service';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../src/openapi.ts';
import { openApiFile } from '../src/openapi-file.ts';

describe('the committed API reference', () => {
  it('equals the document generated from the registry (run `pnpm docs:api` after changing an operation)', () => {
    const committed = JSON.parse(readFileSync(openApiFile, 'utf8'));
    expect(committed).toEqual(openApiDocument(operations, '0.1.0'));
  });
});
