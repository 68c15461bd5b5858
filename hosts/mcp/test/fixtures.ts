import { authenticate, createShop, findOperation, invokeOperation, type Services } from '@cartwright/service';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type CallToolResult, CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import * as v from 'valibot';
import { expect } from 'vitest';

/** A shop with its owner's token and a reader API token made through the registry. */
export interface SeededShop {
  readonly tenantId: string;
  readonly ownerToken: string;
  readonly ownerTokenId: string;
  readonly readerToken: string;
}

export async function seedShop(services: Services, name: string): Promise<SeededShop> {
  const shop = await createShop(services, { name, ownerEmail: `owner@${name.toLowerCase()}.example` });
  const owner = await authenticate(services, shop.token);
  if (!owner.ok) throw new Error(`the owner token of ${name} was rejected`);
  const created = await invokeOperation(services, findOperation('tokens.create')!, owner.value, {
    name: 'reader',
    kind: 'api',
    role: 'reader',
  });
  if (!created.ok) throw new Error(`no reader token for ${name}: ${created.detail}`);
  const { token } = v.parse(v.object({ token: v.string() }), created.value);
  return {
    tenantId: shop.tenantId,
    ownerToken: shop.token,
    ownerTokenId: owner.value.tokenId,
    readerToken: token,
  };
}

/** The body of a successful call, checked to be the same in the text block and `structuredContent`. */
export function successOf(result: CallToolResult): Record<string, unknown> {
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  const first = result.content[0];
  expect(first?.type).toBe('text');
  const text = first?.type === 'text' ? first.text : '';
  expect(JSON.parse(text)).toEqual(result.structuredContent);
  return result.structuredContent ?? {};
}

const FailureBody = v.looseObject({
  code: v.string(),
  detail: v.string(),
  errors: v.optional(v.array(v.object({ pointer: v.string(), message: v.string() }))),
});

/** The failure body of an `isError` call: `{ code, detail, errors? }` as in the HTTP problem. */
export function failureOf(result: CallToolResult): v.InferOutput<typeof FailureBody> {
  expect(result.isError).toBe(true);
  const first = result.content[0];
  const body = v.parse(FailureBody, JSON.parse(first?.type === 'text' ? first.text : 'null'));
  expect(result.structuredContent).toEqual(body);
  return body;
}

export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return CallToolResultSchema.parse(await client.callTool({ name, arguments: args }));
}
