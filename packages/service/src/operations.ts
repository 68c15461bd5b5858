import type { AnyOperation } from '../registry.ts';
import { accountOperations } from './account.ts';
import {
  deleteAutomationDefinition,
  explainRule,
  importRuleCondition,
  listAutomation,
  listAutomationDependencies,
  previewRule,
  readAutomationCatalog,
  saveAutomationDefinition,
} from './automation.ts';
import { basisResourceOperations } from './basis.ts';
import {
  addCartLine,
  getCart,
  placeCheckout,
  removeCartLine,
  updateCartChoices,
  updateCartLine,
} from './cart.ts';
import { catalogOperations } from './catalog.ts';
import { channelOperations } from './channels.ts';
import { commerceMethodOperations } from './commerce-methods.ts';
import { companyOperations } from './company.ts';
import { customerOperations } from './customers.ts';
import { documentOperations } from './documents.ts';
import { downloadOperations } from './downloads.ts';
import { describeEventProcessing, listShopEvents } from './events.ts';
import { listExecutions, resolveExecution } from './executions.ts';
import { addMember, listShopMembers, removeMember } from './members.ts';
import {
  addOrderNote,
  getShopOrder,
  listShopOrders,
  transitionShopOrder,
  updateShopOrder,
} from './orders.ts';
import { reviewOperations } from './reviews.ts';
import { createShopSandbox, getShop } from './shop.ts';
import { getStoreProduct, listStoreProducts } from './store-products.ts';
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
  readAutomationCatalog,
  listAutomation,
  saveAutomationDefinition,
  listAutomationDependencies,
  deleteAutomationDefinition,
  previewRule,
  explainRule,
  importRuleCondition,
  listExecutions,
  resolveExecution,
  ...basisResourceOperations,
  ...channelOperations,
  ...commerceMethodOperations,
  ...catalogOperations,
  ...customerOperations,
  ...accountOperations,
  ...companyOperations,
  ...documentOperations,
  ...downloadOperations,
  listShopOrders,
  getShopOrder,
  transitionShopOrder,
  updateShopOrder,
  addOrderNote,
  listStoreProducts,
  getStoreProduct,
  ...reviewOperations,
  getCart,
  addCartLine,
  updateCartLine,
  removeCartLine,
  updateCartChoices,
  placeCheckout,
];

const byName = new Map(operations.map((operation) => [operation.name, operation]));
if (byName.size !== operations.length) throw new Error('operation names must be unique');

export function findOperation(name: string): AnyOperation | undefined {
  return byName.get(name);
}
