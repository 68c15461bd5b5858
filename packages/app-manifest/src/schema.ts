import * as v from 'valibot';
import { CRON_MAX_LENGTH } from './cron.ts';
import { Version } from './version.ts';

/** Every bound of the format; the README's "Limits" table lists them. */
export const MANIFEST_LIMITS = {
  idLength: 40,
  labelLength: 100,
  descriptionLength: 1000,
  entities: 32,
  fieldsPerEntity: 64,
  fieldsPerShape: 64,
  actions: 128,
  blocks: 32,
  fieldsPerBlock: 64,
  tools: 128,
  schedules: 8,
  scheduleInputMembers: 64,
  webhooks: 16,
  choices: 100,
  choiceValueLength: 100,
  stringMaxLength: 1000,
  stringDefaultMaxLength: 255,
  textMaxLength: 10_000,
  listMaxItems: 1000,
  listDefaultMaxItems: 100,
  exportNameLength: 64,
  cronLength: CRON_MAX_LENGTH,
  subscriptions: 32,
  eventNameLength: 100,
  panels: 5,
  panelHtmlLength: 65_536,
  panelScriptLength: 65_536,
  panelStyleLength: 16_384,
} as const;

const L = MANIFEST_LIMITS;

/** The only manifest API this package reads. */
export const MANIFEST_API_VERSION = 1;

/** The value types of a field, in the README's order. */
export const FIELD_TYPES = [
  'string',
  'text',
  'integer',
  'number',
  'boolean',
  'date',
  'datetime',
  'choice',
  'reference',
  'list',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Types an entity field may mark `indexable` (the service can filter and sort rows by them). */
export const INDEXABLE_TYPES = [
  'string',
  'integer',
  'number',
  'boolean',
  'date',
  'datetime',
  'choice',
  'reference',
] as const satisfies readonly FieldType[];

/** Core objects a plain string field may hold the id of. */
export const CORE_REFERENCES = ['product', 'customer', 'order'] as const;
export type CoreReferenceKind = (typeof CORE_REFERENCES)[number];

/** The shop's read permissions an app may ask for (the service's permission names). */
export const APP_PERMISSIONS = ['catalog.read', 'customers.read', 'orders.read'] as const;
export type AppPermission = (typeof APP_PERMISSIONS)[number];

export const ENTITY_ACTION_KINDS = ['list', 'get', 'create', 'update', 'delete'] as const;
export const ACTION_KINDS = [...ENTITY_ACTION_KINDS, 'service'] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

export const SERVICE_RUNTIMES = ['module', 'external'] as const;

export const BLOCK_KINDS = ['table', 'card', 'form', 'action'] as const;
export type BlockKind = (typeof BLOCK_KINDS)[number];

export const MOUNTS = [
  'admin.product.general',
  'admin.product.tab',
  'admin.product',
  'admin.customer',
  'admin.order',
  'admin.order.general',
  'storefront.product',
] as const;
export type Mount = (typeof MOUNTS)[number];

/** Mounts on the storefront: their blocks run public actions and need no shop permission. */
export const STOREFRONT_MOUNTS = ['storefront.product'] as const satisfies readonly Mount[];

export const CONTEXT_KEYS = ['productId', 'customerId', 'orderId'] as const;
export type ContextKey = (typeof CONTEXT_KEYS)[number];

/** Languages a label may carry; `en` is required and is what a missing language falls back to. */
export const LABEL_LANGUAGES = ['en', 'de', 'es', 'fr'] as const;

const SAFE = Number.MAX_SAFE_INTEGER;

const integerIn = (min: number, max: number) =>
  v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));

const text = (max: number) => v.pipe(v.string(), v.minLength(1), v.maxLength(max));

function translated(max: number, what: string) {
  return v.pipe(
    v.strictObject({
      en: text(max),
      de: v.optional(text(max)),
      es: v.optional(text(max)),
      fr: v.optional(text(max)),
    }),
    v.description(`${what} per language (en required; de, es, fr optional), 1-${max} characters each.`),
  );
}

/** A name shown to people, per language. */
export const Label = translated(L.labelLength, 'A label');
export type Label = v.InferOutput<typeof Label>;

/** A longer explanation per language (also the description of an action's MCP tool). */
export const Description = translated(L.descriptionLength, 'A description');

const ID_PATTERN = /^[a-z][a-z0-9_]*$/;

/** The id of an app, entity, field, action, block, schedule or webhook. */
export const Id = v.pipe(
  v.string(),
  v.maxLength(L.idLength),
  v.regex(
    ID_PATTERN,
    `an id is 1-${L.idLength} characters: a lowercase letter, then lowercase letters, digits or _`,
  ),
  v.description(`1-${L.idLength} characters: a lowercase letter, then lowercase letters, digits or _.`),
);

const APP_ID_PATTERN = /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/;

/** An app's id: like any id, and words may also be joined by `-` (`inbound-demo`). */
export const AppId = v.pipe(
  v.string(),
  v.maxLength(L.idLength),
  v.regex(
    APP_ID_PATTERN,
    `an app id is 1-${L.idLength} characters: lowercase letters and digits, words joined by - or _, starting with a letter`,
  ),
  v.description(
    `1-${L.idLength} characters: lowercase letters and digits, words joined by - or _, starting with a letter.`,
  ),
);

/** The name of an outbox event an app subscribes to, e.g. `order.placed` or `app.loyalty.add_note`. */
export const EventName = v.pipe(
  v.string(),
  v.maxLength(L.eventNameLength),
  v.regex(
    /^[a-z][a-z0-9_-]*(?:\.[a-z0-9_-]+)+$/,
    'an event name is dot-separated lowercase words, e.g. order.placed',
  ),
);

const CoreReference = v.pipe(
  v.picklist(CORE_REFERENCES),
  v.description('The field holds the id of an existing product, customer or order of the same shop.'),
);

const FiniteNumber = v.pipe(v.number(), v.finite());
const SafeInteger = integerIn(-SAFE, SAFE);

const Choice = v.strictObject({
  value: text(L.choiceValueLength),
  label: Label,
});
export type Choice = v.InferOutput<typeof Choice>;

// The type-specific keys of each value type. Fields, shape fields and list items are built from
// these one set of entries, so a type means the same wherever it is declared.
const stringEntries = {
  type: v.literal('string'),
  maxLength: v.optional(integerIn(1, L.stringMaxLength), L.stringDefaultMaxLength),
};
const typeEntries = {
  string: { ...stringEntries, coreReference: v.optional(CoreReference) },
  text: {
    type: v.literal('text'),
    maxLength: v.optional(integerIn(1, L.textMaxLength), L.textMaxLength),
  },
  integer: { type: v.literal('integer'), min: v.optional(SafeInteger), max: v.optional(SafeInteger) },
  number: { type: v.literal('number'), min: v.optional(FiniteNumber), max: v.optional(FiniteNumber) },
  boolean: { type: v.literal('boolean') },
  date: { type: v.literal('date') },
  datetime: { type: v.literal('datetime') },
  choice: {
    type: v.literal('choice'),
    choices: v.pipe(v.array(Choice), v.minLength(1), v.maxLength(L.choices)),
  },
  reference: { type: v.literal('reference'), entity: Id },
};

/** The type of the items of a `list` field: any type but `text` and `list`, without a core reference. */
export const ListItem = v.variant('type', [
  v.strictObject(stringEntries),
  v.strictObject(typeEntries.integer),
  v.strictObject(typeEntries.number),
  v.strictObject(typeEntries.boolean),
  v.strictObject(typeEntries.date),
  v.strictObject(typeEntries.datetime),
  v.strictObject(typeEntries.choice),
  v.strictObject(typeEntries.reference),
]);
export type ListItem = v.InferOutput<typeof ListItem>;

const listEntries = {
  type: v.literal('list'),
  items: ListItem,
  maxItems: v.optional(integerIn(1, L.listMaxItems), L.listDefaultMaxItems),
};

const fieldEntries = {
  name: Id,
  label: v.optional(Label),
  description: v.optional(Description),
  required: v.optional(v.boolean(), false),
};
const indexable = { indexable: v.optional(v.boolean(), false) };

/** A field of an entity: a column of the app's managed table. */
export const EntityField = v.variant('type', [
  v.strictObject({ ...fieldEntries, ...indexable, ...typeEntries.string }),
  v.strictObject({ ...fieldEntries, ...typeEntries.text }),
  v.strictObject({ ...fieldEntries, ...indexable, ...typeEntries.integer }),
  v.strictObject({ ...fieldEntries, ...indexable, ...typeEntries.number }),
  v.strictObject({ ...fieldEntries, ...indexable, ...typeEntries.boolean }),
  v.strictObject({ ...fieldEntries, ...indexable, ...typeEntries.date }),
  v.strictObject({ ...fieldEntries, ...indexable, ...typeEntries.datetime }),
  v.strictObject({ ...fieldEntries, ...indexable, ...typeEntries.choice }),
  v.strictObject({ ...fieldEntries, ...indexable, ...typeEntries.reference }),
  v.strictObject({ ...fieldEntries, ...listEntries }),
]);
export type EntityField = v.InferOutput<typeof EntityField>;

/** A field of a service action's input or output (an entity field without `indexable`). */
export const ShapeField = v.variant('type', [
  v.strictObject({ ...fieldEntries, ...typeEntries.string }),
  v.strictObject({ ...fieldEntries, ...typeEntries.text }),
  v.strictObject({ ...fieldEntries, ...typeEntries.integer }),
  v.strictObject({ ...fieldEntries, ...typeEntries.number }),
  v.strictObject({ ...fieldEntries, ...typeEntries.boolean }),
  v.strictObject({ ...fieldEntries, ...typeEntries.date }),
  v.strictObject({ ...fieldEntries, ...typeEntries.datetime }),
  v.strictObject({ ...fieldEntries, ...typeEntries.choice }),
  v.strictObject({ ...fieldEntries, ...typeEntries.reference }),
  v.strictObject({ ...fieldEntries, ...listEntries }),
]);
export type ShapeField = v.InferOutput<typeof ShapeField>;

/** A declared field anywhere: what `checkValue` reads. */
export type Field = EntityField | ShapeField;

/** An object of typed fields: a service action's input or output. */
export const Shape = v.optional(v.pipe(v.array(ShapeField), v.maxLength(L.fieldsPerShape)), () => []);

export const Entity = v.strictObject({
  id: Id,
  label: v.optional(Label),
  description: v.optional(Description),
  publicRead: v.optional(v.boolean(), false),
  fields: v.pipe(v.array(EntityField), v.minLength(1), v.maxLength(L.fieldsPerEntity)),
});
export type Entity = v.InferOutput<typeof Entity>;

const actionEntries = {
  id: Id,
  label: v.optional(Label),
  description: v.optional(Description),
  // Absent keeps the service's legacy exposure; new assistants write false.
  mcp: v.optional(v.boolean()),
  public: v.optional(v.boolean(), false),
  emits: v.optional(v.boolean(), false),
};

export const EntityAction = v.strictObject({
  ...actionEntries,
  kind: v.picklist(ENTITY_ACTION_KINDS),
  entity: Id,
});
export type EntityAction = v.InferOutput<typeof EntityAction>;

const ExportName = v.pipe(
  v.string(),
  v.maxLength(L.exportNameLength),
  v.regex(/^[A-Za-z_$][A-Za-z0-9_$]*$/, 'an export is a JavaScript identifier'),
);

export const ServiceAction = v.variant('runtime', [
  v.strictObject({
    ...actionEntries,
    kind: v.literal('service'),
    runtime: v.literal('module'),
    export: ExportName,
    input: Shape,
    output: Shape,
  }),
  v.strictObject({
    ...actionEntries,
    kind: v.literal('service'),
    runtime: v.literal('external'),
    input: Shape,
    output: Shape,
  }),
]);
export type ServiceAction = v.InferOutput<typeof ServiceAction>;

export const Action = v.variant('kind', [EntityAction, ServiceAction]);
export type Action = v.InferOutput<typeof Action>;

export const ContextBinding = v.strictObject({
  field: Id,
  key: v.picklist(CONTEXT_KEYS),
});
export type ContextBinding = v.InferOutput<typeof ContextBinding>;

const blockEntries = {
  id: Id,
  title: v.optional(Label),
  mount: v.picklist(MOUNTS),
  action: Id,
  contextBinding: v.optional(ContextBinding),
};

export const Block = v.variant('kind', [
  v.strictObject({
    ...blockEntries,
    kind: v.picklist(['table', 'card', 'form']),
    fields: v.optional(v.pipe(v.array(Id), v.minLength(1), v.maxLength(L.fieldsPerBlock))),
  }),
  v.strictObject({ ...blockEntries, kind: v.literal('action') }),
]);
export type Block = v.InferOutput<typeof Block>;

export const Schedule = v.strictObject({
  id: Id,
  label: v.optional(Label),
  cron: v.pipe(
    v.string(),
    v.maxLength(L.cronLength),
    v.description('Six fields read in UTC: second minute hour day-of-month month day-of-week.'),
  ),
  action: Id,
  input: v.optional(v.pipe(v.record(Id, v.unknown()), v.maxEntries(L.scheduleInputMembers)), () => ({})),
  enabled: v.optional(v.boolean(), true),
});
export type Schedule = v.InferOutput<typeof Schedule>;

export const Webhook = v.strictObject({
  id: Id,
  label: v.optional(Label),
  action: Id,
});
export type Webhook = v.InferOutput<typeof Webhook>;

/**
 * The payment method an app serves (decision 0042): the external service actions the payment
 * adapter calls for each provider command. Each must be an external service action declaring
 * the contract's fields (`PAYMENT_CONTRACT`).
 */
export const Payment = v.strictObject({
  label: Label,
  authorize: Id,
  capture: Id,
  refund: Id,
  status: Id,
});
export type Payment = v.InferOutput<typeof Payment>;

/**
 * The shipping rate an app computes (decision 0042): the service action cart pricing calls for a
 * shipping method served by this app. It must declare the contract's fields (`SHIPPING_CONTRACT`).
 */
export const Shipping = v.strictObject({
  label: Label,
  rate: Id,
});
export type Shipping = v.InferOutput<typeof Shipping>;

export const Intelligence = v.strictObject({
  tools: v.optional(v.pipe(v.array(Id), v.maxLength(L.tools)), () => []),
});

/**
 * A panel the app ships for its page in the admin (decision 0048): static markup, and optionally a
 * script and a style, served into a sandboxed frame with an opaque origin. The script calls the
 * app's declared actions through `cartwright.invoke(action, input)`; the admin allows exactly this
 * script and style by their hashes, so the markup holds neither.
 */
export const Panel = v.strictObject({
  id: Id,
  label: Label,
  html: v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(L.panelHtmlLength),
    v.description('The body markup of the panel, without <script> or <style> elements.'),
  ),
  script: v.optional(
    v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(L.panelScriptLength),
      v.description('JavaScript run after the markup, allowed by its hash; it must not contain </script.'),
    ),
  ),
  style: v.optional(
    v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(L.panelStyleLength),
      v.description('CSS for the markup, allowed by its hash; it must not contain </style.'),
    ),
  ),
});
export type Panel = v.InferOutput<typeof Panel>;

/** What the app adds to the admin beyond its blocks: its own panels, shown on the app's page. */
export const Admin = v.strictObject({
  panels: v.optional(v.pipe(v.array(Panel), v.maxLength(L.panels)), () => []),
});

/** The manifest, API 1: the schema every part is checked with before the cross-checks. */
export const Manifest = v.strictObject({
  apiVersion: v.literal(MANIFEST_API_VERSION),
  id: AppId,
  version: Version,
  name: Label,
  description: v.optional(Description),
  permissions: v.optional(
    v.pipe(v.array(v.picklist(APP_PERMISSIONS)), v.maxLength(APP_PERMISSIONS.length)),
    () => [],
  ),
  entities: v.optional(v.pipe(v.array(Entity), v.maxLength(L.entities)), () => []),
  actions: v.optional(v.pipe(v.array(Action), v.maxLength(L.actions)), () => []),
  blocks: v.optional(v.pipe(v.array(Block), v.maxLength(L.blocks)), () => []),
  intelligence: v.optional(Intelligence, () => ({ tools: [] })),
  schedules: v.optional(v.pipe(v.array(Schedule), v.maxLength(L.schedules)), () => []),
  webhooks: v.optional(v.pipe(v.array(Webhook), v.maxLength(L.webhooks)), () => []),
  payment: v.optional(Payment),
  shipping: v.optional(Shipping),
  // No default: a manifest without panels answers without the key, as it did before panels existed.
  admin: v.optional(Admin),
  /**
   * Outbox events delivered to the app's external service (signed, at least once). A name ending
   * in `.*` subscribes to every event under that prefix.
   */
  subscriptions: v.optional(
    v.pipe(
      v.array(
        v.union([
          EventName,
          v.pipe(
            v.string(),
            v.maxLength(L.eventNameLength),
            v.regex(/^[a-z][a-z0-9_-]*(?:\.[a-z0-9_-]+)*\.\*$/),
          ),
        ]),
      ),
      v.maxLength(L.subscriptions),
    ),
    () => [],
  ),
});
export type Manifest = v.InferOutput<typeof Manifest>;
