/** The payment attempt statuses `payments.list` filters by (the admin labels each one). */
export { ATTEMPT_STATUSES } from '@cartwright/payment-ledger';
export { createToken, type NewToken, revokeTokenOf, type TokenView, tokenView } from './access/tokens.ts';
export { appDeliveryMatchingProjection, isSubscribed } from './apps/delivery/matching.ts';
export {
  DEFAULT_DELIVERY_POLICY,
  type DeliveryPolicy,
  type DeliveryRound,
  type DeliveryRoundOptions,
  retryPauseMs as deliveryRetryPauseMs,
  runDueDeliveries,
} from './apps/delivery/runner.ts';
export {
  APP_SERVICE_TIMEOUT_BOUNDS_MS,
  AppServicesConfigError,
  type AppServicesVariables,
  appServicesEnvironment,
  appServicesOf,
  DEFAULT_APP_SERVICE_TIMEOUT_MS,
  readAppServicesConfig,
} from './apps/external/config.ts';
export {
  type AppServiceEndpoint,
  createHttpAppServices,
  type HttpAppServicesOptions,
} from './apps/external/http-app-services.ts';
export {
  type AppActionRequest,
  type AppCaller,
  appToolName,
  exposedOverMcp,
  invokeAppAction,
  parseAppToolName,
} from './apps/invoke.ts';
export { createWorkerAppSandbox, type WorkerSandboxOptions } from './apps/sandbox/worker-pool.ts';
export { runDueSchedules, type ScheduleRound } from './apps/schedules.ts';
export { type AppTool, actionInputSchema, appTools } from './apps/tools.ts';
export {
  APP_WEBHOOK_SECRET_MAX_BYTES,
  APP_WEBHOOK_SECRET_MIN_BYTES,
  AppWebhookKeysConfigError,
  type AppWebhookVariables,
  appWebhooksEnvironment,
  appWebhooksOf,
  readAppWebhookKeys,
} from './apps/webhook-keys.ts';
export {
  APP_WEBHOOK_BODY_LIMIT_BYTES,
  APP_WEBHOOK_EVENT_ID_MAX_LENGTH,
  APP_WEBHOOK_SKEW_SECONDS,
  isLoopbackAddress,
  isTransportAllowed,
  isWebhookSignatureValid,
  type SignedWebhook,
  sha256Hex,
  signWebhook,
  type WebhookTransport,
  webhookHeaderProblem,
  webhookSignedString,
} from './apps/webhook-signature.ts';
export {
  APP_WEBHOOK_ACCEPTED_STATUS,
  type AppWebhookAnswer,
  type AppWebhookRequest,
  acceptAppWebhook,
  readLimitedBody,
} from './apps/webhooks.ts';
export { type CartView, factsOfCart, openCartOf, viewCart } from './carts/cart.ts';
export { cartFacts } from './carts/facts.ts';
export { type CartPricing, type CartProblem, priceStoredCart } from './carts/pricing.ts';
export { checkout, type OrderPlacedPayload } from './checkout/checkout.ts';
export { openStoreContext, resolveStoreContext, revokeCustomerContexts } from './customers/contexts.ts';
export { createDocument, type DocumentType } from './documents/create.ts';
export { setDownloadAccess } from './downloads/access.ts';
export { FLOW_TRIGGERS } from './flows/definition.ts';
export { type ExecutorOptions, runDueJobs, type UncertainJob } from './flows/executor.ts';
export { flowMatchingProjection } from './flows/matching.ts';
export type { ActionContext, ActionHandler, FlowActor, FlowSubject } from './flows/model.ts';
export { intelligenceEvidenceProjection } from './intelligence/evidence.ts';
export {
  type HypothesisStatusChange,
  type ReviewedHypothesis,
  setHypothesisStatus,
} from './intelligence/review.ts';
export {
  type AppSandbox,
  noAppSandbox,
  SANDBOX_LIMITS,
  type SandboxFailureCode,
  type SandboxLimits,
  type SandboxRequest,
  type SandboxResult,
} from './kernel/app-sandbox.ts';
export {
  type AppDeliveryRequest,
  type AppDeliveryResult,
  type AppServiceFailureCode,
  type AppServiceRequest,
  type AppServiceResult,
  type AppServices,
  noAppServices,
} from './kernel/app-services.ts';
export {
  actorOf,
  authenticate,
  authenticateStorefront,
  authenticateTokenId,
  hashToken,
  type IssuedToken,
  issueChannelKey,
  issueToken,
  type Principal,
  type Storefront,
  type TokenKind,
} from './kernel/auth.ts';
export { type BlobContent, type BlobStore, databaseBlobStore, type StoredBlob } from './kernel/blob-store.ts';
export {
  type EnvEntries,
  EnvironmentError,
  integerVariable,
  listVariable,
  readEnvironment,
  storageEnvironment,
} from './kernel/environment.ts';
export { type DescribeErrorOptions, describeError } from './kernel/error-description.ts';
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
} from './kernel/errors.ts';
export { type Actor, recordEvent } from './kernel/events.ts';
export { type IdSource, uuidV7Ids } from './kernel/ids.ts';
export {
  type ImageProvider,
  type ImageProviderFailureCode,
  type ImageProviderInfo,
  type ImageProviderRequest,
  type ImageProviderResult,
  noImageProvider,
} from './kernel/image-provider.ts';
export {
  type JsonSchema,
  jsonSchemaOf,
  operationInputSchema,
  operationOutputSchema,
  staffInputSchema,
} from './kernel/json-schema.ts';
export {
  type MailAddress,
  type Mailer,
  type MailFailureCode,
  type MailMessage,
  type MailResult,
  noMailer,
} from './kernel/mailer.ts';
export {
  noPaymentProvider,
  type PaymentProvider,
  PROVIDER_API_VERSION,
  type ProviderAccountInfo,
  type ProviderAnswer,
} from './kernel/payment-provider.ts';
export {
  effectivePermissions,
  PERMISSIONS,
  Permission,
  ROLES,
  Role,
  rolePermissions,
} from './kernel/permissions.ts';
export { type Problem, problemOf, problemResponse } from './kernel/problem.ts';
export {
  PROCESS_ROLES,
  type ProcessRole,
  type Round,
  type RoundOptions,
  type Runner,
  type WorkerLogLine,
  type WorkerRole,
} from './kernel/process-roles.ts';
export {
  type AnyOperation,
  defineOperation,
  defineStoreOperation,
  FileContent,
  fieldErrors,
  type HttpMethod,
  invokeOperation,
  invokeStoreOperation,
  isMcpTool,
  type Operation,
  type OperationContext,
  permissionOf,
  STAFF_STORE_INPUT,
  type StoreOperation,
  type StoreOperationContext,
} from './kernel/registry.ts';
export {
  type AppWebhookSettings,
  type Clock,
  createServices,
  type MailServices,
  type MediaUrlSettings,
  noAppWebhooks,
  type PaymentServices,
  type Services,
  systemClock,
} from './kernel/services.ts';
export { BEHAVIOR_VERSION } from './kernel/versions.ts';
export {
  type MailConfig,
  MailConfigError,
  type MailVariables,
  mailEnvironment,
  mailServicesOf,
  readMailConfig,
  type SmtpServer,
} from './mail/config.ts';
export {
  confirmationLanguage,
  MAIL_LANGUAGES,
  type MailLanguage,
  type RenderedMail,
  renderOrderConfirmation,
  type ShopIdentity,
} from './mail/order-confirmation.ts';
export {
  mailMessageId,
  mailReceiptKey,
  type SentOrderConfirmation,
  sendOrderConfirmation,
} from './mail/send-order-confirmation.ts';
export { createSmtpMailer, SMTP_TIMEOUTS_MS, type SmtpMailerOptions } from './mail/smtp.ts';
export {
  MAX_ASSETS_PER_PRODUCT,
  type MediaAsset,
  readMediaAsset,
  removeMediaAsset,
  storeMediaAsset,
} from './media/assets.ts';
export {
  draftReceiptKey,
  type MediaRound,
  type MediaRoundOptions,
  PROVIDER_IMAGE_LIMITS,
  runDueMediaDrafts,
} from './media/draft-worker.ts';
export {
  MAX_INSTRUCTION_LENGTH,
  MAX_PENDING_DRAFTS_PER_PRODUCT,
  MAX_PENDING_DRAFTS_PER_SHOP,
} from './media/drafts.ts';
export {
  type AltTexts,
  MAX_GALLERY_ENTRIES,
  publicGalleries,
  publishStagedGalleryEntries,
  readGallery,
  stageGalleryEntry,
} from './media/gallery.ts';
export {
  createHttpImageProvider,
  DEFAULT_IMAGE_TIMEOUT_MS,
  type HttpImageProviderOptions,
  IMAGE_RESPONSE_LIMIT_BYTES,
} from './media/http-image-provider.ts';
export {
  DEFAULT_IMAGE_MODEL,
  DEFAULT_PROVIDER_BASE_URL,
  type ImageProviderConfig,
  ImageProviderConfigError,
  type ImageProviderVariables,
  imageProviderEnvironment,
  imageProviderOf,
  readImageProviderConfig,
} from './media/image-provider-config.ts';
export {
  type CheckedImage,
  IMAGE_CONTENT_TYPES,
  IMAGE_LIMITS,
  type ImageFormat,
  type ImageInfo,
  type ImageLimits,
  inspectImage,
  type PngImage,
  reencodeAsPng,
  sniffImageFormat,
  verifyImage,
} from './media/images.ts';
export { mediaUrlEnvironment, mediaUrlsOf } from './media/url-config.ts';
export { fetchImageFromUrl, isAllowedAddress } from './media/url-fetch.ts';
export { findOperation, operations } from './operations.ts';
export { type TransitionRequest, transitionOrder } from './orders/transitions.ts';
export { customerHistoryProjection } from './outbox/customer-history.ts';
export {
  type ConsumeOptions,
  type ConsumeReport,
  consumeOnce,
  eventStatisticsProjection,
  type Projection,
} from './outbox/projections.ts';
export {
  type OutsideServices,
  type OutsideServicesOptions,
  type OutsideVariables,
  outsideEnvironment,
  outsideServicesOf,
} from './outside/config.ts';
export {
  type PaymentConfig,
  PaymentConfigError,
  type PaymentVariables,
  type ProviderAccount,
  paymentEnvironment,
  paymentServicesOf,
  readPaymentConfig,
} from './payments/config.ts';
export {
  MAX_TRIES as PAYMENT_JOB_MAX_TRIES,
  type PaymentRound,
  runDuePaymentJobs,
  SWEEP_QUIET_MS,
  sweepQuietAttempts,
} from './payments/jobs.ts';
export { returnFromProvider } from './payments/ledger.ts';
export { createPayPalProvider, type PayPalProviderOptions } from './payments/paypal/index.ts';
export {
  type ReceivedWebhook,
  readWebhookEvent,
  receiveProviderWebhook,
  WEBHOOK_BODY_LIMIT_BYTES,
  WEBHOOK_MAX_TRIES,
} from './payments/webhooks.ts';
export {
  ADMIN_PASSWORD_MIN_LENGTH,
  ADMIN_SESSION_TTL_MS,
  type AdminSession,
  openAdminSession,
  type SignedIn,
  setAdminPassword,
  signInWithPassword,
  signInWithToken,
  signOutAdmin,
  switchAdminShop,
} from './sessions/sessions.ts';
export {
  type CreatedShop,
  createDemoShopIfEmpty,
  createSandbox,
  createShop,
  insertShop,
  type NewShop,
  type ShopView,
  shopView,
} from './shop/shops.ts';
export {
  NATIVE_CUSTOMER_GROUPS,
  STARTER_DEFINITIONS,
  type StarterDefinition,
} from './shop/starter-definitions.ts';
export { type BackfillReport, backfillStarters, provisionStarters } from './shop/starter-provision.ts';
export {
  flowRunner,
  mediaDraftRunner,
  paymentRunner,
  projectionRunner,
  projections,
  releaseLeases,
  runners,
  type ServiceRunner,
} from './workers.ts';
