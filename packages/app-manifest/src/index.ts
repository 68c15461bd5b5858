export {
  actionInputShape,
  actionPermission,
  appEventName,
  CONTEXT_CORE_REFERENCE,
  CORE_REFERENCE_PERMISSION,
  entityOf,
  MOUNT_CONTEXT,
  PRIVATE_CORE_REFERENCES,
} from './access.ts';
export {
  ASSISTANT_IDS,
  ASSISTANT_ISSUE_CODES,
  AssistantId,
  type AssistantIssue,
  type AssistantIssueCode,
  type AssistantLanguage,
  type AssistantOutput,
  type AssistantQuestion,
  type AssistantRefusal,
  type AssistantSummary,
  type QuestionType,
} from './assistants/definition.ts';
export { listAssistants, runAssistant } from './assistants/index.ts';
export {
  type ActionContract,
  PAYMENT_CONTRACT,
  PAYMENT_ROLES,
  type PaymentRole,
  SHIPPING_CONTRACT,
} from './contracts.ts';
export { CRON_MAX_LENGTH, cronProblem } from './cron.ts';
export { DIFF_CODES, type DiffCode, type DiffReason, diffManifests, type ManifestDiff } from './diff.ts';
export {
  MANIFEST_ISSUE_CODES,
  type ManifestIssue,
  type ManifestIssueCode,
  type ManifestRefusal,
} from './issues.ts';
export { parseManifest } from './parse.ts';
export { BLOCK_ACTION_KINDS } from './rules/blocks.ts';
export { RESERVED_FIELD_NAMES } from './rules/fields.ts';
export {
  ACTION_KINDS,
  Action,
  type ActionKind,
  Admin,
  APP_PERMISSIONS,
  AppId,
  type AppPermission,
  BLOCK_KINDS,
  Block,
  type BlockKind,
  type Choice,
  CONTEXT_KEYS,
  CORE_REFERENCES,
  ContextBinding,
  type ContextKey,
  type CoreReferenceKind,
  Description,
  ENTITY_ACTION_KINDS,
  Entity,
  EntityAction,
  EntityField,
  EventName,
  FIELD_TYPES,
  type Field,
  type FieldType,
  Id,
  INDEXABLE_TYPES,
  Intelligence,
  LABEL_LANGUAGES,
  Label,
  ListItem,
  MANIFEST_API_VERSION,
  MANIFEST_LIMITS,
  Manifest,
  MOUNTS,
  type Mount,
  Panel,
  Payment,
  Schedule,
  SERVICE_RUNTIMES,
  ServiceAction,
  Shape,
  ShapeField,
  Shipping,
  STOREFRONT_MOUNTS,
  Webhook,
} from './schema.ts';
export { SECRET_NAME_STEMS, secretStemOf } from './secrets.ts';
export { type DueTicks, dueTicks, MISSED_TICKS_COUNTED, nextTick } from './ticks.ts';
export { fieldJsonSchema, shapeJsonSchema, type ValueJsonSchema } from './value-schema.ts';
export {
  type CheckedValue,
  type CheckOptions,
  checkRow,
  checkValue,
  VALUE_ISSUE_CODES,
  type ValueIssue,
  type ValueIssueCode,
  type ValueRefusal,
} from './values.ts';
export { compareVersions, isVersion, Version } from './version.ts';
