import type { AnyOperation } from '../registry.ts';
import { listAutomation } from './automation.ts';
import { basisResourceOperations } from './basis.ts';
import { describeEventProcessing, listShopEvents } from './events.ts';
import { addMember, listShopMembers, removeMember } from './members.ts';
import { createShopSandbox, getShop } from './shop.ts';
import { createShopToken, listShopTokens, revokeShopToken } from './tokens.ts';

/** Every operation of the service: the HTTP routes, MCP tools and OpenAPI document come from here. */
export const operations: readonly AnyOperation[] = [
  getShop,
  createShopSandbox,
  listShopMembers,
  addMember,
  removeMember,
  listShopTokens,
  createShopToken,
  revokeShopToken,
  listShopEvents,
  describeEventProcessing,
  listAutomation,
  ...basisResourceOperations,
];

const byName = new Map(operations.map((operation) => [operation.name, operation]));
if (byName.size !== operations.length) throw new Error('operation names must be unique');

export function findOperation(name: string): AnyOperation | undefined {
  return byName.get(name);
}
