import { isMcpTool, operations } from '@cartwright/service';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect, it } from 'vitest';
import { callTool, failureOf, type SeededShop, successOf } from './fixtures.ts';

export interface ContractFixture {
  readonly shop: SeededShop;
  /** A connected client acting with `token`; the contract closes it. */
  connect(token: string): Promise<Client>;
}

async function withClient<T>(
  fixture: ContractFixture,
  token: string,
  use: (client: Client) => Promise<T>,
): Promise<T> {
  const client = await fixture.connect(token);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

/**
 * What every MCP transport must show: the registry's tools, calls made as the token's shop,
 * and the same error codes as HTTP. `fixture` is read when the tests run (after `beforeAll`).
 */
export function describeToolContract(fixture: () => ContractFixture): void {
  it('lists one tool per registry operation (not the HTTP-only ones), with object input schemas and read-only hints', async () => {
    const { tools } = await withClient(fixture(), fixture().shop.ownerToken, (client) => client.listTools());
    const toolOperations = operations.filter(isMcpTool);
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      toolOperations.map((operation) => operation.name).sort(),
    );
    // HTTP only: the legacy entity save, the app action doors (each app action is its own tool
    // `app.<app>.<action>` instead) and the storefront's list of app blocks (a storefront renders
    // them; staff read the same blocks in the app's manifest).
    expect(
      operations
        .filter((operation) => !isMcpTool(operation))
        .map((operation) => operation.name)
        .sort(),
    ).toEqual([
      'apps.actions.invoke',
      'apps.actions.invoke-public',
      'apps.entities.create',
      'apps.entities.delete',
      'apps.entities.get',
      'apps.entities.list',
      'apps.entities.list-public',
      'apps.entities.update',
      'apps.storefront-blocks.list',
      'automation.entities.save',
    ]);
    for (const operation of toolOperations) {
      const tool = tools.find((candidate) => candidate.name === operation.name);
      expect(tool?.description).toBe(operation.summary);
      expect(tool?.inputSchema.type).toBe('object');
      expect(tool?.annotations?.readOnlyHint).toBe(operation.readOnly);
    }
  });

  it('answers shop.get with the shop of the token', async () => {
    const { shop } = fixture();
    const value = await withClient(fixture(), shop.ownerToken, async (client) =>
      successOf(await callTool(client, 'shop.get')),
    );
    expect(value).toMatchObject({
      shop: { id: shop.tenantId },
      caller: { tokenId: shop.ownerTokenId, role: 'owner' },
    });
  });

  it('answers FORBIDDEN when the token lacks the permission', async () => {
    const failure = await withClient(fixture(), fixture().shop.readerToken, async (client) =>
      failureOf(await callTool(client, 'members.list')),
    );
    expect(failure.code).toBe('FORBIDDEN');
  });

  it('answers VALIDATION_FAILED with field pointers for bad input', async () => {
    const failure = await withClient(fixture(), fixture().shop.ownerToken, async (client) =>
      failureOf(await callTool(client, 'tokens.create', { name: '', kind: 'robot' })),
    );
    expect(failure.code).toBe('VALIDATION_FAILED');
    expect(failure.errors?.map((error) => error.pointer).sort()).toEqual(['/kind', '/name']);
  });

  it('answers NOT_FOUND for a tool that does not exist', async () => {
    const failure = await withClient(fixture(), fixture().shop.ownerToken, async (client) =>
      failureOf(await callTool(client, 'orders.delete-everything')),
    );
    expect(failure.code).toBe('NOT_FOUND');
  });
}
