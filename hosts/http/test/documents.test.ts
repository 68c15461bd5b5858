import { createMcpServer } from '@cartwright/mcp';
import { authenticate, operations } from '@cartwright/service';
import { insertTestOrder } from '@cartwright/service/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../src/openapi.ts';
import { createHarness, type Harness } from './harness.ts';

let h: Harness;
let documentId: string;
let orderId: string;

async function download(path: string, token: string) {
  const response = await h.app.request(path, { headers: { authorization: `Bearer ${token}` } });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

beforeAll(async () => {
  h = await createHarness();
  const A = h.shopA.token;
  const saved = await h.call('PUT', '/api/company', {
    token: A,
    body: { revision: 0, data: { name: 'Seller AG' } },
  });
  expect(saved.status).toBe(200);
  orderId = (await insertTestOrder(h.services, h.shopA.tenantId)).id;
  const created = await h.call('POST', `/api/orders/${orderId}/documents`, {
    token: A,
    body: { type: 'invoice' },
  });
  expect(created.status).toBe(201);
  documentId = created.body.id as string;
});
afterAll(async () => h?.close());

describe('company identity over HTTP', () => {
  it('answers the identity with its revision and refuses a stale save with 409', async () => {
    const got = await h.call('GET', '/api/company', { token: h.shopA.token });
    expect(got.body).toEqual({ data: { name: 'Seller AG' }, revision: 1 });
    const stale = await h.call('PUT', '/api/company', {
      token: h.shopA.token,
      body: { revision: 0, data: { name: 'Other' } },
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'STALE_REVISION', expected: 0, actual: 1 });
  });
});

describe('documents over HTTP', () => {
  it('creates an invoice with 201 and lists it', async () => {
    const listed = await h.call('GET', `/api/orders/${orderId}/documents`, { token: h.shopA.token });
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([
      expect.objectContaining({ id: documentId, type: 'invoice', number: 1, fileName: 'invoice-1.pdf' }),
    ]);
  });

  it('answers the PDF as an attachment with its length, the same bytes every time', async () => {
    const first = await download(`/api/documents/${documentId}/file`, h.shopA.token);
    expect(first.response.status).toBe(200);
    expect(first.response.headers.get('content-type')).toBe('application/pdf');
    expect(first.response.headers.get('content-disposition')).toBe('attachment; filename="invoice-1.pdf"');
    expect(first.response.headers.get('content-length')).toBe(String(first.bytes.byteLength));
    expect(Buffer.from(first.bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(Buffer.from(first.bytes).toString('latin1').trimEnd()).toMatch(/%%EOF$/);
    const second = await download(`/api/documents/${documentId}/file`, h.shopA.token);
    expect(Buffer.from(second.bytes).equals(Buffer.from(first.bytes))).toBe(true);
  });

  it('answers 404 problems to another shop', async () => {
    const file = await h.call('GET', `/api/documents/${documentId}/file`, { token: h.shopB.token });
    expect(file.status).toBe(404);
    expect(file.type).toBe('application/problem+json');
    const created = await h.call('POST', `/api/orders/${orderId}/documents`, {
      token: h.shopB.token,
      body: { type: 'invoice' },
    });
    expect(created.status).toBe(404);
  });

  it('answers 409 until the shop has a company identity', async () => {
    const order = await insertTestOrder(h.services, h.shopB.tenantId);
    const refused = await h.call('POST', `/api/orders/${order.id}/documents`, {
      token: h.shopB.token,
      body: { type: 'delivery_note' },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('CONFLICT');
  });

  it('describes a file operation as a binary download in the OpenAPI document', () => {
    const document = openApiDocument(operations, 'test') as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content: Record<string, unknown> }> }>
      >;
    };
    const download = document.paths['/api/documents/{documentId}/file']!.get!.responses['200']!;
    expect(download.content).toEqual({ '*/*': { schema: { type: 'string', format: 'binary' } } });
    const list = document.paths['/api/orders/{orderId}/documents']!.get!.responses['200']!;
    expect(Object.keys(list.content)).toEqual(['application/json']);
  });

  it('answers the file as an embedded resource over MCP', async () => {
    const principal = await authenticate(h.services, h.shopA.token);
    if (!principal.ok) throw new Error(principal.detail);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(h.services, principal.value).connect(serverSide);
    const client = new Client({ name: 'documents-test', version: '1.0.0' });
    await client.connect(clientSide);
    const result = await client.callTool({ name: 'documents.download', arguments: { documentId } });
    await client.close();
    expect(result.isError ?? false).toBe(false);
    const http = await download(`/api/documents/${documentId}/file`, h.shopA.token);
    expect(result.content).toEqual([
      {
        type: 'resource',
        resource: {
          uri: 'cartwright://documents.download/invoice-1.pdf',
          mimeType: 'application/pdf',
          blob: Buffer.from(http.bytes).toString('base64'),
        },
      },
    ]);
  });
});
