import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { Database } from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import {
  authenticate,
  createServices,
  createToken,
  type Principal,
  revokeTokenOf,
  type Services,
} from '@cartwright/service';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer, type McpServerOptions, runStdioServer } from '../src/index.ts';
import { callTool, failureOf, seedShop } from './fixtures.ts';

let database: Database;
let services: Services;
let owner: Principal;
let ownerToken: string;

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  const shop = await seedShop(services, 'Factory');
  ownerToken = shop.ownerToken;
  const principal = await authenticate(services, shop.ownerToken);
  if (!principal.ok) throw new Error('the owner token was rejected');
  owner = principal.value;
});

afterAll(async () => {
  await database?.close();
});

async function connectInMemory(serverServices: Services, options: McpServerOptions = {}): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(serverServices, owner, options).connect(serverSide);
  const client = new Client({ name: 'in-memory-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

describe('createMcpServer', () => {
  it('derives each input schema from the valibot schema of its operation', async () => {
    const client = await connectInMemory(services);
    try {
      const { tools } = await client.listTools();
      const create = tools.find((tool) => tool.name === 'tokens.create');
      expect(create?.inputSchema).toMatchObject({
        type: 'object',
        properties: { name: { type: 'string', minLength: 1 }, kind: { enum: ['personal', 'api'] } },
        required: ['name', 'kind'],
      });
      expect(create?.inputSchema).not.toHaveProperty('$schema');
      expect(tools.find((tool) => tool.name === 'shop.get')?.inputSchema).toMatchObject({ type: 'object' });
    } finally {
      await client.close();
    }
  });

  it('answers INTERNAL with a reference, never the exception text, when an operation throws', async () => {
    const reported: { error: unknown; reference: string }[] = [];
    const broken = createServices(database, {
      clock: {
        now() {
          throw new Error('clock exploded: secret detail');
        },
      },
    });
    const client = await connectInMemory(broken, {
      onInternalError: (error, reference) => reported.push({ error, reference }),
    });
    try {
      const failure = failureOf(
        await callTool(client, 'tokens.create', {
          name: 'x',
          kind: 'api',
          role: 'reader',
          expiresAt: '2999-01-01T00:00:00Z',
        }),
      );
      expect(failure.code).toBe('INTERNAL');
      expect(failure.detail).not.toContain('secret');
      expect(reported).toHaveLength(1);
      expect(failure.detail).toContain(reported[0]?.reference);
      expect(String(reported[0]?.error)).toContain('clock exploded');
    } finally {
      await client.close();
    }
  });
});

function streams() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let diagnostics = '';
  stderr.on('data', (chunk: Buffer) => {
    diagnostics += chunk.toString();
  });
  return { stdin, stdout, stderr, diagnostics: () => diagnostics };
}

describe('runStdioServer', () => {
  it('answers JSON-RPC lines on the given streams and resolves 0 when stdin ends', async () => {
    const io = streams();
    const session = runStdioServer({ services, token: ownerToken, ...io });
    const answer = once(io.stdout, 'data');
    io.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' })}\n`);
    const message = v.parse(
      v.object({ id: v.number(), result: v.object({ tools: v.array(v.unknown()) }) }),
      JSON.parse(String((await answer)[0])),
    );
    expect(message.id).toBe(7);
    expect(message.result.tools.length).toBeGreaterThan(0);
    io.stdin.end();
    expect(await session).toBe(0);
    expect(io.diagnostics()).toContain(`serving shop ${owner.tenantId}`);
  });

  it('resolves 2 with one stderr line and writes nothing to stdout for a rejected token', async () => {
    const io = streams();
    const written: Buffer[] = [];
    io.stdout.on('data', (chunk: Buffer) => written.push(chunk));
    expect(await runStdioServer({ services, token: 'cw_api_nope', ...io })).toBe(2);
    expect(io.diagnostics().trim().split('\n')).toEqual([expect.stringContaining('the token was rejected')]);
    expect(written).toEqual([]);
  });

  it('checks the token on every call: a token revoked mid-session stops working at once', async () => {
    const created = await database.transaction((tx) =>
      createToken(
        tx,
        services,
        owner.tenantId,
        { kind: 'system', process: 'test' },
        {
          name: 'desktop',
          kind: 'api',
          role: 'reader',
        },
      ),
    );
    if (!created.ok) throw new Error(created.detail);
    const io = streams();
    const session = runStdioServer({ services, token: created.value.token, ...io });
    const Answer = v.object({
      id: v.number(),
      result: v.object({
        isError: v.optional(v.boolean()),
        structuredContent: v.record(v.string(), v.unknown()),
      }),
    });
    const call = async (id: number) => {
      const answer = once(io.stdout, 'data');
      io.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'shop.get', arguments: {} } })}\n`,
      );
      return v.parse(Answer, JSON.parse(String((await answer)[0])));
    };
    expect((await call(1)).result.isError).toBeUndefined();
    await database.transaction((tx) =>
      revokeTokenOf(
        tx,
        services,
        owner.tenantId,
        { kind: 'system', process: 'test' },
        created.value.details.id,
      ),
    );
    const refused = await call(2);
    expect(refused.result.isError).toBe(true);
    expect(refused.result.structuredContent.code).toBe('UNAUTHENTICATED');
    io.stdin.end();
    expect(await session).toBe(0);
  });

  it('resolves 0 when the signal aborts', async () => {
    const io = streams();
    const stop = new AbortController();
    const session = runStdioServer({ services, token: ownerToken, ...io, signal: stop.signal });
    stop.abort();
    expect(await session).toBe(0);
  });
});
