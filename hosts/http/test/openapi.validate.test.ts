import { readFileSync } from 'node:fs';
import { operations } from '@cartwright/service';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../src/openapi.ts';
import { openApiFile } from '../src/openapi-file.ts';
import { createHarness, type Harness } from './harness.ts';

type Document = Record<string, unknown> & {
  components: { securitySchemes: Record<string, Record<string, unknown>>; schemas: Record<string, unknown> };
  paths: Record<string, Record<string, { security?: Record<string, string[]>[]; 'x-mcp-tool'?: string }>>;
};

const generated = openApiDocument(operations, '0.1.0') as Document;
const committed = JSON.parse(readFileSync(openApiFile, 'utf8')) as Document;

/** Every `$ref` string anywhere in the document. */
function referencesIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) referencesIn(item, found);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') found.push(item);
      else referencesIn(item, found);
    }
  }
  return found;
}

/** The value a local reference (`#/a/b`) points at in the document, or undefined. */
function resolve(document: unknown, reference: string): unknown {
  if (!reference.startsWith('#/')) return undefined;
  return reference
    .slice(2)
    .split('/')
    .map((token) => decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>(
      (node, token) =>
        typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[token] : undefined,
      document,
    );
}

describe.each([
  ['generated', generated],
  ['committed docs/api/openapi.json', committed],
])('the %s OpenAPI document', (_, document) => {
  it('carries the behaviour and provider contract versions clients read (spec: Versioning)', () => {
    expect(document.info).toMatchObject({ 'x-behavior-version': 'v0.5', 'x-provider-api-version': 1 });
  });

  it('is valid OpenAPI 3.1 (schema validator, references resolved)', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  it('has every reference resolve and every security requirement name a defined scheme', () => {
    const dangling = referencesIn(document).filter((reference) => resolve(document, reference) === undefined);
    expect(dangling).toEqual([]);
    const schemes = Object.keys(document.components.securitySchemes);
    const named = new Set(
      Object.values(document.paths).flatMap((path) =>
        Object.values(path).flatMap((operation) =>
          (operation.security ?? []).flatMap((requirement) => Object.keys(requirement)),
        ),
      ),
    );
    expect([...named].filter((name) => !schemes.includes(name))).toEqual([]);
  });

  it('describes the storefront credentials: x-channel-key always, x-context-token where a visitor has one, a bearer token for private channels', () => {
    expect(document.components.securitySchemes.channelKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'x-channel-key',
    });
    expect(document.components.securitySchemes.contextToken).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'x-context-token',
    });
    const storefront = Object.entries(document.paths).filter(([path]) => path.startsWith('/store-api/'));
    expect(storefront.length).toBeGreaterThan(0);
    for (const [, methods] of storefront) {
      for (const operation of Object.values(methods)) {
        expect(operation.security).toEqual([
          { channelKey: [], contextToken: [] },
          { channelKey: [] },
          { channelKey: [], contextToken: [], bearer: [] },
          { channelKey: [], bearer: [] },
        ]);
      }
    }
  });
});

describe('GET /api/openapi.json', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => h?.close());

  it('is readable without a token: it holds no shop data', async () => {
    const response = await h.app.request('/api/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(((await response.json()) as { openapi: string }).openapi).toBe('3.1.0');
  });
});
