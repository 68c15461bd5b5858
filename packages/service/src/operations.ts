import { addMember, listShopMembers, removeMember } from './access/members.operations.ts';
import { createShopToken, listShopTokens, revokeShopToken } from './access/operations.ts';
import { appActionOperations } from './apps/actions.operations.ts';
import { appAssistantOperations } from './apps/assistants.operations.ts';
import { appDeliveryOperations } from './apps/deliveries.operations.ts';
import { appOperations } from './apps/operations.ts';
import {
  deleteAutomationDefinition,
  explainRule,
  importRuleCondition,
  listAutomation,
  listAutomationDependencies,
  previewRule,
  readAutomationCatalog,
  saveAutomationDefinition,
} from './automation/operations.ts';
import {
  addCartLine,
  addPromotionCode,
  getCart,
  removeCartLine,
  removePromotionCode,
  updateCartChoices,
  updateCartLine,
} from './carts/operations.ts';
import { listShopCarts } from './carts/shop.operations.ts';
import { catalogOperations } from './catalog/operations.ts';
import { getStoreProduct, listStoreProducts } from './catalog/store.operations.ts';
import { channelGrantOperations } from './channels/grants.operations.ts';
import { channelOperations } from './channels/operations.ts';
import { placeCheckout } from './checkout/operations.ts';
import { accountOperations } from './customers/account.operations.ts';
import { customerOperations } from './customers/operations.ts';
import { documentOperations } from './documents/operations.ts';
import { downloadOperations } from './downloads/operations.ts';
import { listExecutions, resolveExecution } from './flows/operations.ts';
import { intelligenceOperations } from './intelligence/operations.ts';
import { proposalOperations } from './intelligence/proposals.operations.ts';
import type { AnyOperation } from './kernel/registry.ts';
import { mediaDraftOperations } from './media/drafts.operations.ts';
import { galleryOperations } from './media/gallery.operations.ts';
import {
  addOrderNote,
  getShopOrder,
  listShopOrders,
  transitionShopOrder,
  updateShopOrder,
} from './orders/operations.ts';
import { describeEventProcessing, listShopEvents } from './outbox/operations.ts';
import { paymentOperations } from './payments/operations.ts';
import { reviewOperations } from './reviews/operations.ts';
import { companyOperations } from './settings/company.operations.ts';
import { commerceMethodOperations } from './settings/methods.operations.ts';
import { basisResourceOperations } from './settings/operations.ts';
import { createShopSandbox, getShop } from './shop/operations.ts';

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
  ...channelGrantOperations,
  ...commerceMethodOperations,
  ...catalogOperations,
  ...customerOperations,
  ...accountOperations,
  ...companyOperations,
  ...documentOperations,
  ...downloadOperations,
  ...mediaDraftOperations,
  ...galleryOperations,
  listShopOrders,
  getShopOrder,
  transitionShopOrder,
  updateShopOrder,
  addOrderNote,
  listShopCarts,
  ...paymentOperations,
  ...appOperations,
  ...appActionOperations,
  ...appAssistantOperations,
  ...appDeliveryOperations,
  listStoreProducts,
  getStoreProduct,
  ...reviewOperations,
  ...intelligenceOperations,
  ...proposalOperations,
  getCart,
  addCartLine,
  updateCartLine,
  removeCartLine,
  updateCartChoices,
  addPromotionCode,
  removePromotionCode,
  placeCheckout,
];

const byName = new Map(operations.map((operation) => [operation.name, operation]));
if (byName.size !== operations.length) throw new Error('operation names must be unique');

export function findOperation(name: string): AnyOperation | undefined {
  return byName.get(name);
}
