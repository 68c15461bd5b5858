import type { AddressInfo } from 'node:net';
import type { Database } from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import { createServices, type Services } from '@cartwright/service';
import { type ServerType, serve } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleMcpRequest } from '../src/index.ts';
import { callTool, failureOf, type SeededShop, seedShop, successOf } from './fixtures.ts';
import { describeToolContract } from './tool-contract.ts';

let database: Database;
let services: Services;
let server: ServerType;
let endpoint: URL;
let first: SeededShop;
let second: SeededShop;

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  first = await seedShop(services, 'First');
  second = await seedShop(services, 'Second');
  // Mounted as the HTTP host mounts it.
  const app = new Hono().all('/mcp', (c) => handleMcpRequest(services, c.req.raw));
  const address = await new Promise<AddressInfo>((resolve) => {
    server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, resolve);
  });
  endpoint = new URL(`http://127.0.0.1:${address.port}/mcp`);
});

afterAll(async () => {
  await new Promise<void>((resolve, reject) => server?.close((error) => (error ? reject(error) : resolve())));
  await database?.close();
});

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(endpoint, {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
});

function post(headers: Record<string, string>): Promise<Response> {
  return fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: initialize,
  });
}

describe('MCP over Streamable HTTP', () => {
  describeToolContract(() => ({ shop: first, connect }));

  it('answers 401 problem+json to a request without a token', async () => {
    const response = await post({});
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(await response.json()).toMatchObject({
      type: 'https://cartwright.dev/problems/unauthenticated',
      title: 'Authentication required',
      status: 401,
      code: 'UNAUTHENTICATED',
    });
  });

  it('answers 401 to an unknown token and the SDK client fails to connect', async () => {
    const forged = `${first.ownerToken.slice(0, -4)}AAAA`;
    const response = await post({ authorization: `Bearer ${forged}` });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(connect(forged)).rejects.toThrow();
  });

  it('initializes statelessly: no session id, and GET (no standalone stream) answers 405', async () => {
    const response = await post({ authorization: `Bearer ${first.ownerToken}` });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(await response.json()).toMatchObject({ id: 1, result: { serverInfo: { name: 'cartwright' } } });
    const stream = await fetch(endpoint, {
      headers: { authorization: `Bearer ${first.ownerToken}`, accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(405);
    await stream.body?.cancel();
  });

  it('keeps a token of another shop inside its own shop', async () => {
    const intruder = await connect(second.ownerToken);
    try {
      expect(successOf(await callTool(intruder, 'shop.get'))).toMatchObject({
        shop: { id: second.tenantId },
      });
      const revoke = failureOf(await callTool(intruder, 'tokens.revoke', { tokenId: first.ownerTokenId }));
      expect(revoke.code).toBe('NOT_FOUND');
    } finally {
      await intruder.close();
    }
    const owner = await connect(first.ownerToken);
    try {
      expect(successOf(await callTool(owner, 'shop.get'))).toMatchObject({ shop: { id: first.tenantId } });
    } finally {
      await owner.close();
    }
  });
});
