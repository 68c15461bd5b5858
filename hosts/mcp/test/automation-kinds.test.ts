import type { Database } from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import { authenticate, createServices, type Services } from '@cartwright/service';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '../src/index.ts';
import { callTool, failureOf, seedShop, successOf } from './fixtures.ts';

// Every `{kind}` of the automation endpoints as MCP tools (issue 14): rules, flows, promotions
// and channels saved, listed, asked for their dependencies and deleted through
// `automation.save|list|dependencies|delete`, with the same answers as over HTTP.

let database: Database;
let services: Services;
let client: Client;

const RULE = '0190f0c8-0000-7000-8000-00000000d001';
const FLOW = '0190f0c8-0000-7000-8000-00000000d002';
const PROMOTION = '0190f0c8-0000-7000-8000-00000000d003';
const CHANNEL = '0190f0c8-0000-7000-8000-00000000d004';

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  const shop = await seedShop(services, 'Kinds');
  const owner = await authenticate(services, shop.ownerToken);
  if (!owner.ok) throw new Error('the owner token was rejected');
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(services, owner.value).connect(serverSide);
  client = new Client({ name: 'kinds-test', version: '1.0.0' });
  await client.connect(clientSide);
});
afterAll(async () => {
  await client?.close();
  await database?.close();
});

describe('automation tools for every kind', () => {
  it('saves, lists, answers dependencies of and deletes rules, flows, promotions and channels', async () => {
    successOf(
      await callTool(client, 'automation.save', {
        kind: 'rules',
        id: RULE,
        revision: 0,
        data: {
          name: { en: 'Big carts' },
          condition: { type: 'cartCartAmount', value: { operator: '>=', amount: 50 } },
        },
      }),
    );
    successOf(
      await callTool(client, 'automation.save', {
        kind: 'flows',
        id: FLOW,
        revision: 0,
        active: false,
        data: {
          name: { en: 'Tag big orders' },
          trigger: 'order.placed',
          condition: null,
          pipeline: {
            entry: 'tag',
            nodes: [
              {
                id: 'tag',
                kind: 'action',
                action: 'action.add.order.tag',
                config: { tagIds: ['big'] },
                next: null,
              },
            ],
          },
        },
      }),
    );
    const promotion = successOf(
      await callTool(client, 'automation.save', {
        kind: 'promotions',
        id: PROMOTION,
        revision: 0,
        data: {
          name: { en: '5 % off big carts' },
          condition: { type: 'ruleReference', ruleId: RULE },
          discounts: [{ scope: 'cart', type: 'percentage', value: 5 }],
        },
      }),
    );
    expect(promotion).toMatchObject({ id: PROMOTION, revision: 1, active: true });
    const list = successOf(await callTool(client, 'automation.list'));
    const main = (list.channels as { id: string }[])[0]!;
    expect(list.promotions).toEqual([expect.objectContaining({ id: PROMOTION, redemptions: 0 })]);
    const read = successOf(await callTool(client, 'merchant.commerce.read', { channelId: main.id }));
    const channel = successOf(
      await callTool(client, 'automation.save', {
        kind: 'channels',
        id: CHANNEL,
        revision: 0,
        baseRevision: read.baseRevision,
        channel: { name: { en: 'Kiosk' }, mode: 'headless', paused: false, private: true, languages: ['en'] },
      }),
    );
    expect(channel).toMatchObject({ id: CHANNEL, revision: 1, channel: { private: true } });

    // The promotion names the rule: the rule's delete is refused with the promotion as blocker.
    const rule = successOf(await callTool(client, 'automation.dependencies', { kind: 'rules', id: RULE }));
    expect(rule.blockers).toEqual([expect.objectContaining({ kind: 'promotion', id: PROMOTION })]);
    const refused = failureOf(
      await callTool(client, 'automation.delete', { kind: 'rules', id: RULE, revision: 1 }),
    );
    expect(refused.code).toBe('REFERENCED');
    expect(
      successOf(await callTool(client, 'automation.dependencies', { kind: 'promotions', id: PROMOTION })),
    ).toEqual({ kind: 'promotions', id: PROMOTION, blockers: [], references: [RULE] });
    expect(
      successOf(await callTool(client, 'automation.dependencies', { kind: 'channels', id: CHANNEL })),
    ).toEqual({ kind: 'channels', id: CHANNEL, blockers: [], references: [] });

    // A channel body on a rule (or data on a channel) is refused.
    expect(
      failureOf(
        await callTool(client, 'automation.save', { kind: 'channels', id: CHANNEL, revision: 1, data: {} }),
      ).code,
    ).toBe('VALIDATION_FAILED');

    for (const [kind, id] of [
      ['promotions', PROMOTION],
      ['rules', RULE],
      ['flows', FLOW],
    ] as const) {
      expect(successOf(await callTool(client, 'automation.delete', { kind, id, revision: 1 }))).toEqual({
        kind,
        id,
        deleted: true,
      });
    }
    expect(
      successOf(await callTool(client, 'automation.delete', { kind: 'channels', id: CHANNEL, revision: 1 })),
    ).toEqual({ channelId: CHANNEL, deleted: true });
    const after = successOf(await callTool(client, 'automation.list'));
    const ids = [after.rules, after.flows, after.promotions].flatMap((rows) =>
      (rows as { id: string }[]).map((row) => row.id),
    );
    expect(ids.filter((id) => [RULE, FLOW, PROMOTION].includes(id))).toEqual([]);
    expect((after.channels as { id: string }[]).map((row) => row.id)).toEqual([main.id]);
  });
});
