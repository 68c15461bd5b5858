import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import { createServices, createShop, type Services } from '@cartwright/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let database: Database;
let services: Services;
let shopA: string;
let shopB: string;

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  shopA = (await createShop(services, { name: 'Blobs A' })).tenantId;
  shopB = (await createShop(services, { name: 'Blobs B' })).tenantId;
});
afterAll(async () => database?.close());

/** Random bytes with runs of zeros and every byte value, so no encoding step can hide a change. */
function sample(size: number): Uint8Array {
  const bytes = new Uint8Array(randomBytes(size));
  for (let index = 0; index < Math.min(size, 256); index++) bytes[index] = index;
  if (size > 1024) bytes.fill(0, size - 512);
  return bytes;
}

describe('the database blob store', () => {
  it.each([
    ['empty', 0],
    ['one byte', 1],
    ['a single zero', -1],
    ['4 KiB', 4096],
    ['1 MiB', 1024 * 1024],
  ])('round-trips %s exactly', async (_label, size) => {
    const bytes = size === -1 ? new Uint8Array([0]) : sample(size);
    const stored = await database.transaction((tx) =>
      services.blobs.put(tx, shopA, { bytes, contentType: 'application/octet-stream' }),
    );
    const digest = createHash('sha256').update(bytes).digest('hex');
    expect(stored).toEqual({ id: expect.any(String), size: bytes.byteLength, sha256: digest });
    const read = await services.blobs.get(database.db, shopA, stored.id);
    expect(read).not.toBeNull();
    expect(read!.bytes).toBeInstanceOf(Uint8Array);
    expect(read!.bytes.byteLength).toBe(bytes.byteLength);
    expect(Buffer.from(read!.bytes).equals(Buffer.from(bytes))).toBe(true);
    expect(read).toMatchObject({
      contentType: 'application/octet-stream',
      size: bytes.byteLength,
      sha256: digest,
    });
  });

  it('keeps a blob inside its shop', async () => {
    const stored = await database.transaction((tx) =>
      services.blobs.put(tx, shopA, { bytes: sample(64), contentType: 'text/plain' }),
    );
    expect(await services.blobs.get(database.db, shopB, stored.id)).toBeNull();
    expect(await services.blobs.delete(database.db, shopB, stored.id)).toBe(false);
    expect(await services.blobs.get(database.db, shopA, stored.id)).not.toBeNull();
  });

  it('writes in the caller’s transaction: a rollback leaves nothing behind', async () => {
    let id = '';
    await expect(
      database.transaction(async (tx) => {
        id = (await services.blobs.put(tx, shopA, { bytes: sample(32), contentType: 'text/plain' })).id;
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(id).not.toBe('');
    expect(await services.blobs.get(database.db, shopA, id)).toBeNull();
  });

  it('deletes a blob once', async () => {
    const stored = await database.transaction((tx) =>
      services.blobs.put(tx, shopA, { bytes: sample(16), contentType: 'text/plain' }),
    );
    expect(await services.blobs.delete(database.db, shopA, stored.id)).toBe(true);
    expect(await services.blobs.delete(database.db, shopA, stored.id)).toBe(false);
    expect(await services.blobs.get(database.db, shopA, stored.id)).toBeNull();
  });
});
