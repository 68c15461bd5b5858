import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { Database } from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import { createServices, type Services } from '@cartwright/service';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStdioServer } from '../src/index.ts';
import { type SeededShop, seedShop } from './fixtures.ts';

// The stdio session reports an INTERNAL result on stderr with its reference; a failed query's
// bound parameters (here the new customer's password hash, e-mail and name) never appear there.

let database: Database;
let services: Services;
let shop: SeededShop;

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  shop = await seedShop(services, 'Redaction');
  await database.db.execute('alter table customers add constraint logging_probe check (false) not valid');
});
afterAll(async () => database?.close());

const Answer = v.object({
  id: v.number(),
  result: v.object({
    isError: v.optional(v.boolean()),
    structuredContent: v.object({ code: v.string(), reference: v.optional(v.string()) }),
  }),
});

describe('stdio diagnostics of an internal error', () => {
  it('name the reference and the SQLSTATE, never parameters, hash, e-mail or token', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let diagnostics = '';
    stderr.on('data', (chunk: Buffer) => {
      diagnostics += chunk.toString();
    });
    const session = runStdioServer({ services, token: shop.ownerToken, stdin, stdout, stderr });
    const secrets = ['Pa55word-stdio-9d1e', 'Philippa', 'Hiddensurname', 'stdio.leak@redaction.test'];
    const answer = once(stdout, 'data');
    stdin.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'store.account.register',
          arguments: {
            password: secrets[0],
            firstName: secrets[1],
            lastName: secrets[2],
            email: secrets[3],
          },
        },
      })}\n`,
    );
    const { result } = v.parse(Answer, JSON.parse(String((await answer)[0])));
    stdin.end();
    expect(await session).toBe(0);
    expect(result.isError).toBe(true);
    expect(result.structuredContent.code).toBe('INTERNAL');
    for (const secret of [...secrets, 'scrypt$', shop.ownerToken]) {
      expect(diagnostics, `stderr carries ${secret}`).not.toContain(secret);
    }
    const reference = result.structuredContent.reference;
    expect(reference).toEqual(expect.any(String));
    const line = diagnostics.split('\n').find((candidate) => candidate.includes(reference!));
    expect(line, diagnostics).toBeDefined();
    expect(line).toContain('"23514"');
  });
});
