import { type Database, listChannels } from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authenticateStorefront,
  createSandbox,
  createServices,
  createShop,
  type Services,
} from '../src/index.ts';

let database: Database;
let services: Services;

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
});
afterAll(async () => database?.close());

describe('authenticateStorefront', () => {
  it('resolves a channel key to its shop and channel, with the visitor context token', async () => {
    const shop = await createShop(services, { name: 'Store' });
    const [main] = await listChannels(database.db, shop.tenantId);
    expect(main?.accessKey).toMatch(/^cwk_[0-9a-f]{32}_/);
    const storefront = await authenticateStorefront(services, main!.accessKey, 'ctx-1');
    expect(storefront).toEqual({
      ok: true,
      value: { tenantId: shop.tenantId, channelId: main!.id, contextToken: 'ctx-1' },
    });
  });

  it('rejects a missing, malformed, altered or foreign key', async () => {
    const a = await createShop(services, { name: 'A' });
    const b = await createShop(services, { name: 'B' });
    const [channelA] = await listChannels(database.db, a.tenantId);
    const [channelB] = await listChannels(database.db, b.tenantId);
    // B's random part under A's shop id: the key names a channel A does not have.
    const spliced = `cwk_${a.tenantId.replaceAll('-', '')}_${channelB!.accessKey.slice(-24)}`;
    // The last character swapped for a different one (a fixed 'x' would be no change when the key already ends in x).
    const last = channelA!.accessKey.at(-1);
    const altered = `${channelA!.accessKey.slice(0, -1)}${last === 'x' ? 'y' : 'x'}`;
    for (const key of [undefined, '', 'cwk_nope', altered, spliced]) {
      const result = await authenticateStorefront(services, key, undefined);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.code).toBe('UNAUTHENTICATED');
    }
  });

  it('gives a sandbox channel its own key, which names the sandbox', async () => {
    const live = await createShop(services, { name: 'Live' });
    const sandbox = await createSandbox(services, live.tenantId, {
      name: 'Sandbox',
      ownerUserId: null,
      actor: { kind: 'system', process: 'test' },
    });
    const [liveChannel] = await listChannels(database.db, live.tenantId);
    const [sandboxChannel] = await listChannels(database.db, sandbox.tenantId);
    expect(sandboxChannel!.id).toBe(liveChannel!.id);
    expect(sandboxChannel!.accessKey).not.toBe(liveChannel!.accessKey);
    const resolved = await authenticateStorefront(services, sandboxChannel!.accessKey, undefined);
    expect(resolved.ok && resolved.value.tenantId).toBe(sandbox.tenantId);
  });
});
