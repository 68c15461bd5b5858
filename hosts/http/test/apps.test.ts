import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

// The app lifecycle over HTTP (issue 15, item 2): the loyalty example installs unchanged, an
// incompatible upgrade fails whole, a compatible one succeeds, versions never change within a
// shop, and uninstalling keeps or purges by an explicit choice. Installing needs apps.manage.

let h: Harness;
/** The example's module: every install of the example (and its variants) ships it. */
const module = readFileSync(new URL('../../../examples/apps/loyalty/module.js', import.meta.url), 'utf8');
const example = JSON.parse(
  readFileSync(new URL('../../../examples/apps/loyalty/manifest.json', import.meta.url), 'utf8'),
) as Record<string, unknown> & { entities: { id: string; fields: Record<string, unknown>[] }[] };
const staff = (method: string, path: string, body?: unknown) =>
  h.call(method, path, { token: h.shopA.token, body });
function expectOk(response: { status: number; body: unknown }, status = 200) {
  if (response.status !== status) throw new Error(`${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Record<string, unknown>;
}
/** The example at `version`, with `change` applied to its first entity's fields. */
function variant(version: string, change: (fields: Record<string, unknown>[]) => Record<string, unknown>[]) {
  const [first, ...rest] = example.entities;
  return { ...example, version, entities: [{ ...first!, fields: change(first!.fields) }, ...rest] };
}

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describe('the app lifecycle', () => {
  it('installs the example, refuses incompatible upgrades whole, upgrades compatibly, uninstalls', async () => {
    expect(expectOk(await staff('GET', '/api/apps')).items).toEqual([]);
    const installed = expectOk(
      await staff('PUT', '/api/apps/loyalty', { revision: 0, manifest: example, module }),
    );
    expect(installed).toMatchObject({
      change: 'installed',
      app: { appId: 'loyalty', version: '1.0.0', revision: 1 },
    });
    // The same manifest again changes nothing.
    expect(
      expectOk(await staff('PUT', '/api/apps/loyalty', { revision: 1, manifest: example, module })).change,
    ).toBe('unchanged');

    const before = expectOk(await staff('GET', '/api/apps'));
    for (const [manifest, code] of [
      [variant('1.1.0', (fields) => fields.filter((field) => field.name !== 'points')), 'FIELD_REMOVED'],
      [
        variant('1.1.0', (fields) =>
          fields.map((field, i) => (i === 1 ? { ...field, type: 'integer', maxLength: undefined } : field)),
        ),
        'FIELD_TYPE_CHANGED',
      ],
      [{ ...example, version: '0.9.0' }, 'VERSION_DOWNGRADE'],
      [
        variant('1.0.0', (fields) => [...fields, { name: 'extra', type: 'string', maxLength: 10 }]),
        'VERSION_CHANGED',
      ],
    ] as const) {
      const refused = await staff('PUT', '/api/apps/loyalty', { revision: 1, manifest, module });
      expect(refused.status, JSON.stringify(refused.body)).toBe(409);
      expect(refused.body.code).toBe('APP_INCOMPATIBLE');
      expect((refused.body.reasons as { code: string }[]).map((reason) => reason.code)).toContain(code);
    }
    expect(expectOk(await staff('GET', '/api/apps'))).toEqual(before);

    const compatible = variant('1.1.0', (fields) => [
      ...fields,
      { name: 'extra', type: 'string', maxLength: 10 },
    ]);
    const upgraded = expectOk(
      await staff('PUT', '/api/apps/loyalty', { revision: 1, manifest: compatible, module }),
    );
    expect(upgraded).toMatchObject({ change: 'upgraded', app: { version: '1.1.0', revision: 2 } });
    const stale = await staff('PUT', '/api/apps/loyalty', { revision: 1, manifest: compatible, module });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('STALE_REVISION');

    expectOk(await staff('DELETE', '/api/apps/loyalty?revision=2'));
    expect(expectOk(await staff('GET', '/api/apps')).items).toEqual([]);
    // Version 1.0.0 ran here: it comes back only with the manifest it had.
    const changed = await staff('PUT', '/api/apps/loyalty', {
      revision: 0,
      manifest: variant('1.0.0', (fields) => [...fields, { name: 'extra', type: 'string', maxLength: 10 }]),
      module,
    });
    expect(changed.status).toBe(409);
    expect(changed.body.code).toBe('APP_INCOMPATIBLE');
    expect(
      expectOk(await staff('PUT', '/api/apps/loyalty', { revision: 0, manifest: example, module })).change,
    ).toBe('installed');
  });

  it('answers every manifest problem with its pointer, and another app id is refused', async () => {
    const refused = await staff('PUT', '/api/apps/broken', {
      revision: 0,
      manifest: {
        ...example,
        id: 'broken',
        entities: [{ id: 'x', fields: [{ name: 'api_key', type: 'string', maxLength: 5 }] }],
      },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('VALIDATION_FAILED');
    expect(
      (refused.body.errors as { pointer: string }[]).every((error) => error.pointer.startsWith('/manifest')),
    ).toBe(true);
    const other = await staff('PUT', '/api/apps/other', { revision: 0, manifest: example, module });
    expect(other.status).toBe(422);
    expect(other.body.errors).toEqual([expect.objectContaining({ pointer: '/manifest/id' })]);
  });
});
