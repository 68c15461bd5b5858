export {
  actorOf,
  authenticate,
  authenticateStorefront,
  hashToken,
  type IssuedToken,
  issueChannelKey,
  issueToken,
  type Principal,
  type TokenKind,
} from './auth.ts';
export { type BlobContent, type BlobStore, databaseBlobStore, type StoredBlob } from './blob-store.ts';
export { type CartView, factsOfCart, openCartOf, viewCart } from './carts/cart.ts';
export { checkout, type OrderPlacedPayload } from './carts/checkout.ts';
export { cartFacts } from './carts/facts.ts';
export { type CartPricing, type CartProblem, priceStoredCart } from './carts/pricing.ts';
export { createDocument, type DocumentType } from './documents/create.ts';
export {
  type EnvEntries,
  EnvironmentError,
  integerVariable,
  readEnvironment,
  storageEnvironment,
} from './environment.ts';
export {
  type ErrorCode,
  errorStatus,
  errorTitle,
  type Failure,
  type FieldError,
  fail,
  ok,
  type Result,
  type Success,
} from './errors.ts';
export { type Actor, recordEvent } from './events.ts';
export { type ExecutorOptions, runDueJobs } from './flows/executor.ts';
export { flowMatchingProjection } from './flows/matching.ts';
export type { ActionContext, ActionHandler, FlowActor, FlowSubject } from './flows/model.ts';
export {
  type JsonSchema,
  jsonSchemaOf,
  operationInputSchema,
  operationOutputSchema,
  staffInputSchema,
} from './json-schema.ts';
export { setDownloadAccess } from './operations/downloads.ts';
export { findOperation, operations } from './operations/index.ts';
export { type TransitionRequest, transitionOrder } from './orders/transitions.ts';
export { customerHistoryProjection } from './outbox/customer-history.ts';
export {
  type ConsumeOptions,
  type ConsumeReport,
  consumeOnce,
  eventStatisticsProjection,
  PROCESS_ROLES,
  type ProcessRole,
  type Projection,
  projections,
  releaseLeases,
  type WorkerRole,
} from './outbox/projections.ts';
export {
  effectivePermissions,
  PERMISSIONS,
  Permission,
  ROLES,
  Role,
  rolePermissions,
} from './permissions.ts';
export { type Problem, problemOf, problemResponse } from './problem.ts';
export {
  type AnyOperation,
  defineOperation,
  defineStoreOperation,
  FileContent,
  fieldErrors,
  type HttpMethod,
  invokeOperation,
  invokeStoreOperation,
  type Operation,
  type OperationContext,
  permissionOf,
  STAFF_STORE_INPUT,
  type Storefront,
  type StoreOperation,
  type StoreOperationContext,
} from './registry.ts';
export {
  type Clock,
  createServices,
  type IdSource,
  type Services,
  systemClock,
  uuidV7Ids,
} from './services.ts';
export {
  type CreatedShop,
  createDemoShopIfEmpty,
  createSandbox,
  createShop,
  insertShop,
  type NewShop,
  type ShopView,
  shopView,
} from './shops.ts';
export {
  NATIVE_CUSTOMER_GROUPS,
  STARTER_DEFINITIONS,
  type StarterDefinition,
} from './starter/definitions.ts';
export { type BackfillReport, backfillStarters, provisionStarters } from './starter/provision.ts';
export { openStoreContext, resolveStoreContext, revokeCustomerContexts } from './store-context.ts';
export { createToken, type NewToken, revokeTokenOf, type TokenView, tokenView } from './tokens.ts';
