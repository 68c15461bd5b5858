import { Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { createLogger } from '../src/logger.ts';
import { createHarness, type Harness } from './harness.ts';

// A failing query must never put its bound parameters into a log: the customer's password hash,
// e-mail and name travel as parameters of the insert that a forced CHECK violation makes fail.

let h: Harness;
let lines: string[];
let app: ReturnType<typeof createApp>;
let channelKey: string;

/** Everything logged since the last call, as one string (and the parsed records). */
function drained(): { text: string; records: Record<string, unknown>[] } {
  const taken = lines.splice(0);
  return { text: taken.join(''), records: taken.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

beforeAll(async () => {
  h = await createHarness();
  lines = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  app = createApp(h.services, { logger: createLogger('info', 'cartwright', sink) });
  const channels = (await h.call('GET', '/api/automation', { token: h.shopA.token })).body.channels as {
    accessKey: string;
    isMain: boolean;
  }[];
  channelKey = channels.find((channel) => channel.isMain)!.accessKey;
  // Every new customer row now fails inside the database, after the hash was computed.
  await h.database.rows(sql`alter table customers add constraint logging_probe check (false) not valid`);
});
afterAll(async () => h?.close());

const secrets = {
  password: 'Pa55word-never-logged-7f3c',
  firstName: 'Quintessa',
  lastName: 'Secretsurname',
} as const;

function expectNoSecrets(text: string, more: readonly string[]) {
  for (const secret of [secrets.password, secrets.firstName, secrets.lastName, 'scrypt$', ...more]) {
    expect(text, `the log carries ${secret}`).not.toContain(secret);
  }
}

describe('logs of failed queries', () => {
  it('HTTP: a 500 logs its request id, SQLSTATE and query, never parameters, hash, e-mail or token', async () => {
    const context = await app.request('/store-api/context', {
      method: 'POST',
      headers: { 'x-channel-key': channelKey },
    });
    const contextToken = ((await context.json()) as { contextToken: string }).contextToken;
    const email = 'leaky.visitor@redaction.test';
    drained();
    const response = await app.request('/store-api/account/register', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-channel-key': channelKey,
        'x-context-token': contextToken,
      },
      body: JSON.stringify({ email, ...secrets }),
    });
    expect(response.status).toBe(500);
    const problem = (await response.json()) as { code: string; requestId: string; detail: string };
    expect(problem.code).toBe('INTERNAL');
    const { text, records } = drained();
    expectNoSecrets(text, [email, contextToken, channelKey]);
    const failure = records.find((record) => record.msg === 'unhandled error');
    expect(failure, text).toBeDefined();
    expect(failure?.requestId).toBe(problem.requestId);
    // What helps: the SQLSTATE (check_violation) and the statement text, found somewhere in the chain.
    expect(text).toContain('"23514"');
    expect(text).toMatch(/insert into \\?"customers\\?"/);
  });

  it('MCP over /mcp: an INTERNAL result logs its reference, never parameters or the bearer token', async () => {
    const email = 'leaky.staff.register@redaction.test';
    const client = new Client({ name: 'logging-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://cartwright.test/mcp'), {
        requestInit: { headers: { authorization: `Bearer ${h.shopA.token}` } },
        fetch: async (url, init) => app.request(String(url), init),
      }),
    );
    drained();
    const result = (await client.callTool({
      name: 'store.account.register',
      arguments: { email, ...secrets },
    })) as { isError?: boolean; structuredContent?: { code?: string; reference?: string } };
    await client.close();
    expect(result.isError).toBe(true);
    expect(result.structuredContent?.code).toBe('INTERNAL');
    const reference = result.structuredContent?.reference;
    expect(reference).toEqual(expect.any(String));
    const { text, records } = drained();
    expectNoSecrets(text, [email, h.shopA.token]);
    const failure = records.find((record) => record.reference === reference);
    expect(failure, text).toMatchObject({ level: 50, msg: 'internal error in an MCP tool' });
    expect(failure?.requestId).toEqual(expect.any(String));
    expect(text).toContain('"23514"');
  });
});
