import type { Action, AppPermission, ContextKey, CoreReferenceKind, Entity, Field, Mount } from './schema.ts';

/** The context key each mount hands its blocks. */
export const MOUNT_CONTEXT: Readonly<Record<Mount, ContextKey>> = {
  'admin.product.general': 'productId',
  'admin.product.tab': 'productId',
  'admin.product': 'productId',
  'admin.customer': 'customerId',
  'admin.order': 'orderId',
  'admin.order.general': 'orderId',
  'storefront.product': 'productId',
};

/** The core object whose id a context key carries. */
export const CONTEXT_CORE_REFERENCE: Readonly<Record<ContextKey, CoreReferenceKind>> = {
  productId: 'product',
  customerId: 'customer',
  orderId: 'order',
};

/** The permission an app must ask for to hold ids of a core object or to mount a block beside one. */
export const CORE_REFERENCE_PERMISSION: Readonly<Record<CoreReferenceKind, AppPermission>> = {
  product: 'catalog.read',
  customer: 'customers.read',
  order: 'orders.read',
};

/** Core objects whose ids never leave through public data (spec, Errors: "public customer or order references"). */
export const PRIVATE_CORE_REFERENCES: readonly CoreReferenceKind[] = ['customer', 'order'];

/** The outbox event an emitting action appends: `app.<app_id>.<action>`. */
export function appEventName(appId: string, actionId: string): string {
  return `app.${appId}.${actionId}`;
}

/**
 * The team permission a caller needs to invoke an action privately (spec, Authentication 5):
 * readers list and read app data; saving, deleting and service actions need `apps.write`.
 * A public action needs none on the storefront API.
 */
export function actionPermission(action: Action): 'apps.read' | 'apps.write' {
  return action.kind === 'list' || action.kind === 'get' ? 'apps.read' : 'apps.write';
}

/** The entity an action reads or writes, or null for a service action (or an unknown entity). */
export function entityOf(manifest: { readonly entities: readonly Entity[] }, action: Action): Entity | null {
  if (action.kind === 'service') return null;
  return manifest.entities.find((entity) => entity.id === action.entity) ?? null;
}

/**
 * The fields a webhook body or a schedule's input must fit: the created entity's fields for a
 * `create` action, the declared input for a service action; null for other kinds.
 */
export function actionInputShape(
  manifest: { readonly entities: readonly Entity[] },
  action: Action,
): readonly Field[] | null {
  if (action.kind === 'service') return action.input;
  if (action.kind === 'create') return entityOf(manifest, action)?.fields ?? null;
  return null;
}
