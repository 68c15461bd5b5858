import { MachineName } from '@cartwright/commerce';
import {
  AI_PROPOSAL_CONFIG,
  APP_ACTION_FACTS,
  type AppActionFact,
  isJsonValue,
} from '@cartwright/flow-graph';
import {
  type CustomerRow,
  type Executor,
  findApp,
  findCustomer,
  findCustomerGroup,
  findCustomerHistory,
  findDocument,
  findOrder,
  findTenant,
  listOrderActivities,
  lockTransaction,
  type OrderActivityRow,
  type OrderRow,
  saveCustomerGroupFields,
} from '@cartwright/repository';
import * as v from 'valibot';
import { EMAIL_DELIVERY_APP_ID } from '../apps/first-party.ts';
import { invokeAppAction } from '../apps/invoke.ts';
import { manifestOf } from '../apps/lifecycle.ts';
import {
  type CustomerChanges,
  CustomerGroup,
  CustomFields,
  Tags,
  updateCustomerFields,
} from '../customers/customer.ts';
import { createDocument } from '../documents/create.ts';
import { setDownloadAccess } from '../downloads/access.ts';
import { createProposal } from '../intelligence/proposals.ts';
import { type Failure, fail, ok, type Result } from '../kernel/errors.ts';
import { type Actor, recordEvent } from '../kernel/events.ts';
import { confirmationRecipient, sendOrderConfirmation } from '../mail/send-order-confirmation.ts';
import {
  addOrderActivityNote,
  type OrderChanges,
  OrderTags,
  updateLockedOrder,
  type WrittenActivityKind,
} from '../orders/changes.ts';
import { transitionOrder } from '../orders/transitions.ts';
import { NATIVE_CUSTOMER_GROUPS } from '../shop/starter-definitions.ts';
import {
  type ActionContext,
  type ActionHandler,
  type OutsideContext,
  type OutsidePart,
  withOutsidePart,
} from './model.ts';

// The flow actions: each one a real domain effect through the same internal functions the staff
// operations use (so every guard, event and session revocation applies), run in the step's own
// transaction `context.tx`. Configs arrive normalized by `@cartwright/flow-graph`; each handler
// still checks the part it reads, so a malformed stored flow fails its own step with a code.

type Config = Readonly<Record<string, unknown>>;

/** The actor events and activity entries carry when a flow acts. */
function flowActor(context: OutsideContext): Extract<Actor, { kind: 'flow' }> {
  return {
    kind: 'flow',
    flowId: context.job.flowId,
    jobId: context.job.id,
    nodeId: context.nodeId,
    onBehalfOf: context.actor,
  };
}

/** Reads the part of a config a handler needs, or fails the step with VALIDATION_FAILED. */
function configOf<T extends v.GenericSchema>(
  action: string,
  schema: T,
  config: Config,
): Result<v.InferOutput<T>> {
  const parsed = v.safeParse(schema, config);
  if (parsed.success) return ok(parsed.output);
  const issue = parsed.issues[0];
  const path = (issue.path ?? []).map((item) => String(item.key)).join('/');
  return fail(
    'VALIDATION_FAILED',
    `The config of ${action} is invalid: ${path ? `${path}: ` : ''}${issue.message}`,
  );
}

/** The order the flow's event names, locked for this step; NOT_FOUND when there is none. */
async function subjectOrder(context: ActionContext, action: string): Promise<Result<OrderRow>> {
  const orderId = context.subject.orderId;
  if (!orderId) {
    return fail('NOT_FOUND', `${action} acts on an order, but the event that started this flow names none.`);
  }
  const order = await findOrder(context.tx, context.tenantId, orderId, { forUpdate: true });
  if (!order)
    return fail('NOT_FOUND', `The order ${orderId} this flow acts on no longer exists in this shop.`);
  return ok(order);
}

/**
 * The customer a customer action changes, locked for this step: the order's customer when the
 * subject is an order, else the subject's customer. NOT_FOUND when there is none.
 */
async function subjectCustomer(context: ActionContext, action: string): Promise<Result<CustomerRow>> {
  let customerId: string;
  if (context.subject.orderId) {
    const order = await findOrder(context.tx, context.tenantId, context.subject.orderId);
    if (!order) {
      return fail(
        'NOT_FOUND',
        `The order ${context.subject.orderId} this flow acts on no longer exists in this shop.`,
      );
    }
    if (!order.customerId) {
      return fail(
        'NOT_FOUND',
        `${action} needs a customer, but order ${order.number} has no customer account.`,
      );
    }
    customerId = order.customerId;
  } else if (context.subject.customerId) {
    customerId = context.subject.customerId;
  } else {
    return fail(
      'NOT_FOUND',
      `${action} acts on a customer, but the event that started this flow names none.`,
    );
  }
  const customer = await findCustomer(context.tx, context.tenantId, customerId, 'update');
  if (!customer)
    return fail('NOT_FOUND', `The customer ${customerId} this flow acts on no longer exists in this shop.`);
  return ok(customer);
}

/** The order changed at its current (locked) revision through `orders.update`'s function. */
function changeOrder(
  context: ActionContext,
  order: OrderRow,
  changes: OrderChanges,
): Promise<Result<OrderRow>> {
  // `order` was read locked by subjectOrder in this step's transaction.
  return updateLockedOrder(
    context.tx,
    context.services,
    context.tenantId,
    flowActor(context),
    order,
    order.revision,
    changes,
  );
}

/** The customer changed at its current (locked) revision through `customers.update`'s function. */
function changeCustomer(
  context: ActionContext,
  customer: CustomerRow,
  changes: CustomerChanges,
): Promise<Result<CustomerRow>> {
  return updateCustomerFields(
    context.tx,
    context.services,
    context.tenantId,
    flowActor(context),
    customer.id,
    customer.revision,
    changes,
  );
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

function withTags(current: readonly string[], tags: readonly string[], mode: 'add' | 'remove'): string[] {
  if (mode === 'add') return [...new Set([...current, ...tags])];
  const removed = new Set(tags);
  return current.filter((tag) => !removed.has(tag));
}

const TagsConfig = v.object({ tags: v.pipe(v.array(v.string()), v.minLength(1)) });

function orderTagAction(mode: 'add' | 'remove'): ActionHandler {
  const action = `action.${mode}.order.tag`;
  return async (context, config) => {
    const parsed = configOf(action, TagsConfig, config);
    if (!parsed.ok) return parsed;
    const order = await subjectOrder(context, action);
    if (!order.ok) return order;
    const next = v.safeParse(OrderTags, withTags(order.value.tags, parsed.value.tags, mode));
    if (!next.success)
      return fail('VALIDATION_FAILED', `An order tag is 1 to 100 characters: ${next.issues[0].message}`);
    if (sameList(next.output, order.value.tags)) return ok({ tags: order.value.tags });
    const updated = await changeOrder(context, order.value, { tags: next.output });
    return updated.ok ? ok({ tags: updated.value.tags }) : updated;
  };
}

function customerTagAction(mode: 'add' | 'remove'): ActionHandler {
  const action = `action.${mode}.customer.tag`;
  return async (context, config) => {
    const parsed = configOf(action, TagsConfig, config);
    if (!parsed.ok) return parsed;
    const customer = await subjectCustomer(context, action);
    if (!customer.ok) return customer;
    const next = v.safeParse(Tags, withTags(customer.value.tags, parsed.value.tags, mode));
    if (!next.success) {
      return fail(
        'VALIDATION_FAILED',
        `A customer has at most 100 tags of 1 to 100 characters: ${next.issues[0].message}`,
      );
    }
    if (sameList(next.output, customer.value.tags)) return ok({ tags: customer.value.tags });
    const updated = await changeCustomer(context, customer.value, { tags: next.output });
    return updated.ok ? ok({ tags: updated.value.tags }) : updated;
  };
}

const CustomFieldConfig = v.object({
  field: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  value: v.unknown(),
});

/** The custom fields with `field` set to `value`; a null value removes the key. */
function withField(current: Record<string, unknown>, field: string, value: unknown): Record<string, unknown> {
  const next = { ...current };
  if (value === null || value === undefined) delete next[field];
  else next[field] = value;
  return next;
}

const setOrderCustomField: ActionHandler = async (context, config) => {
  const action = 'action.set.order.custom.field';
  const parsed = configOf(action, CustomFieldConfig, config);
  if (!parsed.ok) return parsed;
  const { field, value } = parsed.value;
  const order = await subjectOrder(context, action);
  if (!order.ok) return order;
  const updated = await changeOrder(context, order.value, {
    customFields: withField(order.value.customFields, field, value),
  });
  return updated.ok ? ok({ field, value: updated.value.customFields[field] ?? null }) : updated;
};

const setCustomerCustomField: ActionHandler = async (context, config) => {
  const action = 'action.set.customer.custom.field';
  const parsed = configOf(action, CustomFieldConfig, config);
  if (!parsed.ok) return parsed;
  const { field, value } = parsed.value;
  const customer = await subjectCustomer(context, action);
  if (!customer.ok) return customer;
  const fields = v.safeParse(CustomFields, withField(customer.value.customFields, field, value));
  if (!fields.success) return fail('VALIDATION_FAILED', `Invalid custom field: ${fields.issues[0].message}`);
  const updated = await changeCustomer(context, customer.value, { customFields: fields.output });
  return updated.ok ? ok({ field, value: updated.value.customFields[field] ?? null }) : updated;
};

/**
 * Sets a custom field on the native group (consumer or business) of the customer the flow acts on,
 * stored in the shop's row for that group (`customer_groups`); null removes the field. Like the
 * customer and order actions it writes the group's current revision on by one and records
 * `customer_group.updated`. The row remembers the step that wrote last, so running the same step
 * again (same `flow:<job>:<node>` key) answers the stored value and writes nothing.
 */
const setCustomerGroupCustomField: ActionHandler = async (context, config) => {
  const action = 'action.set.customer.group.custom.field';
  const parsed = configOf(action, CustomFieldConfig, config);
  if (!parsed.ok) return parsed;
  const { field, value } = parsed.value;
  // What flow-graph's config check admits: plain JSON, null to remove (never left out).
  if (value === undefined || !isJsonValue(value)) {
    return fail(
      'VALIDATION_FAILED',
      `The config of ${action} is invalid: value: expected a JSON value (null removes the field).`,
      { errors: [{ pointer: '/value', message: 'expected a JSON value' }] },
    );
  }
  const customer = await subjectCustomer(context, action);
  if (!customer.ok) return customer;
  const group: unknown = customer.value.group;
  if (!v.is(CustomerGroup, group)) {
    return fail(
      'UNSUPPORTED_ACTION',
      `Customer ${customer.value.id} is in the group ${JSON.stringify(group)}, which is not one of the native customer groups consumer and business; arbitrary customer groups are not supported.`,
    );
  }
  const groupId = NATIVE_CUSTOMER_GROUPS[group];
  await lockTransaction(context.tx, `customer-group:${context.tenantId}:${group}`);
  const current = await findCustomerGroup(context.tx, context.tenantId, group);
  if (current?.lastStepKey === context.stepKey) {
    return ok({ group, groupId, field, value: current.customFields[field] ?? null });
  }
  const fields = v.safeParse(CustomFields, withField(current?.customFields ?? {}, field, value));
  if (!fields.success) return fail('VALIDATION_FAILED', `Invalid custom field: ${fields.issues[0].message}`);
  const row = await saveCustomerGroupFields(
    context.tx,
    context.tenantId,
    group,
    { customFields: fields.output, lastStepKey: context.stepKey },
    context.services.clock.now(),
  );
  await recordEvent(
    context.tx,
    context.services,
    context.tenantId,
    flowActor(context),
    'customer_group.updated',
    {
      group,
      groupId,
      revision: row.revision,
      changed: ['customFields'],
    },
  );
  return ok({ group, groupId, field, value: row.customFields[field] ?? null });
};

/** A code to write: text, null to clear, or the source shape `{ value, upsert }` (upsert false keeps a set code). */
const CodeValue = v.union([
  v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(100))),
  v.object({
    value: v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(100))),
    upsert: v.optional(v.boolean(), true),
  }),
]);
const CodesConfig = v.object({ affiliateCode: v.optional(CodeValue), campaignCode: v.optional(CodeValue) });
type CodeValue = v.InferOutput<typeof CodeValue>;

/** The code to store, or undefined to leave it as it is. Empty text clears it. */
function nextCode(current: string | null, given: CodeValue | undefined): string | null | undefined {
  if (given === undefined) return undefined;
  if (given !== null && typeof given === 'object') {
    if (!given.upsert && current !== null) return undefined;
    return given.value === '' ? null : given.value;
  }
  return given === '' ? null : given;
}

function codeChanges(
  current: { affiliateCode: string | null; campaignCode: string | null },
  config: v.InferOutput<typeof CodesConfig>,
): { affiliateCode?: string | null; campaignCode?: string | null } {
  const changes: { affiliateCode?: string | null; campaignCode?: string | null } = {};
  const affiliateCode = nextCode(current.affiliateCode, config.affiliateCode);
  const campaignCode = nextCode(current.campaignCode, config.campaignCode);
  if (affiliateCode !== undefined && affiliateCode !== current.affiliateCode)
    changes.affiliateCode = affiliateCode;
  if (campaignCode !== undefined && campaignCode !== current.campaignCode)
    changes.campaignCode = campaignCode;
  return changes;
}

const addOrderCodes: ActionHandler = async (context, config) => {
  const action = 'action.add.order.affiliate.and.campaign.code';
  const parsed = configOf(action, CodesConfig, config);
  if (!parsed.ok) return parsed;
  const order = await subjectOrder(context, action);
  if (!order.ok) return order;
  const changes = codeChanges(order.value, parsed.value);
  let row = order.value;
  if (Object.keys(changes).length > 0) {
    const updated = await changeOrder(context, order.value, changes);
    if (!updated.ok) return updated;
    row = updated.value;
  }
  return ok({ affiliateCode: row.affiliateCode, campaignCode: row.campaignCode });
};

const addCustomerCodes: ActionHandler = async (context, config) => {
  const action = 'action.add.customer.affiliate.and.campaign.code';
  const parsed = configOf(action, CodesConfig, config);
  if (!parsed.ok) return parsed;
  const customer = await subjectCustomer(context, action);
  if (!customer.ok) return customer;
  const changes = codeChanges(customer.value, parsed.value);
  let row = customer.value;
  if (Object.keys(changes).length > 0) {
    const updated = await changeCustomer(context, customer.value, changes);
    if (!updated.ok) return updated;
    row = updated.value;
  }
  return ok({ affiliateCode: row.affiliateCode, campaignCode: row.campaignCode });
};

const GROUP_BY_ID: Readonly<Record<string, CustomerGroup>> = Object.fromEntries(
  Object.entries(NATIVE_CUSTOMER_GROUPS).map(([group, id]) => [id, group as CustomerGroup]),
);

const changeCustomerGroup: ActionHandler = async (context, config) => {
  const action = 'action.change.customer.group';
  const given = config.groupId ?? config.customerGroupId;
  const group = typeof given === 'string' ? (GROUP_BY_ID[given] ?? given) : given;
  if (!v.is(CustomerGroup, group)) {
    return fail(
      'UNSUPPORTED_ACTION',
      'Only the native customer groups consumer and business are supported; arbitrary customer-group ids are not.',
    );
  }
  const customer = await subjectCustomer(context, action);
  if (!customer.ok) return customer;
  if (customer.value.group === group) return ok({ customerId: customer.value.id, group, unchanged: true });
  // customers.update's function revokes the customer's sessions and open-cart authority.
  const updated = await changeCustomer(context, customer.value, { group });
  return updated.ok ? ok({ customerId: updated.value.id, group: updated.value.group }) : updated;
};

const changeCustomerStatus: ActionHandler = async (context, config) => {
  const action = 'action.change.customer.status';
  const parsed = configOf(action, v.object({ active: v.boolean() }), config);
  if (!parsed.ok) return parsed;
  const { active } = parsed.value;
  const customer = await subjectCustomer(context, action);
  if (!customer.ok) return customer;
  if (customer.value.active === active) return ok({ customerId: customer.value.id, active, unchanged: true });
  const updated = await changeCustomer(context, customer.value, { active });
  return updated.ok ? ok({ customerId: updated.value.id, active: updated.value.active }) : updated;
};

const STATE_COLUMN = { order: 'state', payment: 'paymentState', delivery: 'deliveryState' } as const;

const setOrderState: ActionHandler = async (context, config) => {
  const action = 'action.set.order.state';
  const parsed = configOf(
    action,
    v.object({ kind: MachineName, state: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(40)) }),
    config,
  );
  if (!parsed.ok) return parsed;
  const { kind: machine, state } = parsed.value;
  const order = await subjectOrder(context, action);
  if (!order.ok) return order;
  if (order.value[STATE_COLUMN[machine]] === state) return ok({ machine, state, unchanged: true });
  const moved = await transitionOrder(context.tx, context.services, context.tenantId, order.value.id, {
    machine,
    to: state,
    source: 'flow',
    actor: flowActor(context),
  });
  if (!moved.ok) return moved;
  return ok({ machine, from: order.value[STATE_COLUMN[machine]], to: moved.value[STATE_COLUMN[machine]] });
};

/** Serialises the step within the transaction, so two runs of one step cannot both create. */
function lockStep(context: ActionContext): Promise<void> {
  return lockTransaction(context.tx, `flow-step:${context.tenantId}:${context.stepKey}`);
}

/** The activity entry of `kind` this step already wrote on the order, if any. */
async function activityOfStep(
  context: ActionContext,
  orderId: string,
  kind: string,
): Promise<OrderActivityRow | undefined> {
  const activities = await listOrderActivities(context.tx, context.tenantId, orderId);
  return activities.find((row) => row.kind === kind && row.data.stepKey === context.stepKey);
}

const generateDocument: ActionHandler = async (context, config) => {
  const action = 'action.generate.document';
  const parsed = configOf(action, v.object({ kind: v.picklist(['invoice', 'delivery_note']) }), config);
  if (!parsed.ok) return parsed;
  const order = await subjectOrder(context, action);
  if (!order.ok) return order;
  await lockStep(context);
  const earlier = await activityOfStep(context, order.value.id, 'document');
  const earlierId = earlier?.data.documentId;
  if (typeof earlierId === 'string') {
    const document = await findDocument(context.tx, context.tenantId, earlierId);
    if (document) return ok({ documentId: document.id, number: document.number, type: document.type });
  }
  const created = await createDocument(context.tx, context.services, context.tenantId, {
    orderId: order.value.id,
    type: parsed.value.kind,
    actor: flowActor(context),
    stepKey: context.stepKey,
  });
  return created.ok
    ? ok({ documentId: created.value.id, number: created.value.number, type: created.value.type })
    : created;
};

const grantDownloadAccess: ActionHandler = async (context, config) => {
  const action = 'action.grant.download.access';
  const parsed = configOf(action, v.object({ value: v.boolean() }), config);
  if (!parsed.ok) return parsed;
  const order = await subjectOrder(context, action);
  if (!order.ok) return order;
  const result = await setDownloadAccess(
    context.tx,
    context.services,
    context.tenantId,
    order.value.id,
    parsed.value.value,
    flowActor(context),
  );
  if (!result.ok) return result;
  const granted = result.value.filter((entitlement) => entitlement.grantedAt && !entitlement.revokedAt);
  return ok({ value: parsed.value.value, granted: granted.length, entitlements: result.value.length });
};

const MailConfig = v.object({ templateId: v.picklist(['order_confirmation']) });

function emailDeliveryMissing(): Failure {
  return fail(
    'APP_NOT_INSTALLED',
    'Sending email needs the Email Delivery app, which is not installed in this shop.',
    { extensions: { app: EMAIL_DELIVERY_APP_ID } },
  );
}

/**
 * The outside part of `action.mail.send`: with the Email Delivery app installed, sends the subject
 * order's confirmation in the order's language, once per step key (`sendOrderConfirmation`'s own
 * receipt: a step run again answers the first send and sends nothing). A refusal or a missing
 * mail server fails the step; an unreachable server or a send of unknown outcome leaves the job
 * uncertain, since the server may have taken the message (decision 0037).
 */
const sendMailOutside: OutsidePart = async (context, config) => {
  const action = 'action.mail.send';
  const { services, tenantId } = context;
  const orderId = context.subject.orderId;
  const checked = await services.database.transaction(async (tx): Promise<Result<string | null>> => {
    if (!(await findApp(tx, tenantId, EMAIL_DELIVERY_APP_ID))) return emailDeliveryMissing();
    if (!orderId) return ok(null);
    const order = await findOrder(tx, tenantId, orderId);
    return ok(order ? confirmationRecipient(order) : null);
  });
  if (!checked.ok) return checked;
  const parsed = configOf(action, MailConfig, config);
  if (!parsed.ok) return parsed;
  if (!orderId) {
    return fail(
      'NOT_FOUND',
      `${action} sends an order's mail, but the event that started this flow names no order.`,
    );
  }
  const sent = await sendOrderConfirmation(services, tenantId, orderId, context.stepKey);
  if (sent.ok) {
    const { template, messageId, language, replayed } = sent.value;
    return ok({ template, messageId, to: checked.value, language, replayed });
  }
  if (sent.code === 'MAIL_UNAVAILABLE' || sent.code === 'MAIL_UNCERTAIN') return { ...sent, uncertain: true };
  return sent;
};

/**
 * The inside part of `action.mail.send`: records what the outside part sent. Called without it
 * (not through the executor) it sends nothing: APP_NOT_INSTALLED when the app is missing.
 */
const sendMail: ActionHandler = withOutsidePart(sendMailOutside, async (context) => {
  if (context.outside !== undefined) return ok(context.outside);
  if (!(await findApp(context.tx, context.tenantId, EMAIL_DELIVERY_APP_ID))) return emailDeliveryMissing();
  throw new Error('action.mail.send sends in its outside part: run it through the flow executor.');
});

const stopFlow: ActionHandler = async () => ok({ stopped: true });

const TranslatedText = v.union([
  v.pipe(v.string(), v.trim(), v.minLength(1)),
  v.pipe(
    v.record(v.string(), v.pipe(v.string(), v.trim(), v.minLength(1))),
    v.check((texts) => Object.keys(texts).length > 0, 'give the text in at least one language'),
  ),
]);

function baseLanguage(code: string): string {
  return code.split('-')[0]!;
}

/** The text in the order's language, else the shop's main language, else English, else any. */
async function textFor(
  context: ActionContext,
  order: OrderRow,
  text: v.InferOutput<typeof TranslatedText>,
): Promise<string> {
  if (typeof text === 'string') return text;
  const pick = (code: string): string | undefined => text[code] ?? text[baseLanguage(code)];
  const inOrderLanguage = pick(order.language);
  if (inOrderLanguage !== undefined) return inOrderLanguage;
  const tenant = await findTenant(context.tx, context.tenantId);
  return (tenant ? pick(tenant.mainLanguage) : undefined) ?? text.en ?? Object.values(text)[0]!;
}

/** Writes (once per step) an entry of `kind` on the order's timeline; answers its id. */
async function writeActivity(
  context: ActionContext,
  order: OrderRow,
  kind: WrittenActivityKind,
  text: string,
  data: Record<string, unknown>,
): Promise<Result<string>> {
  await lockStep(context);
  const earlier = await activityOfStep(context, order.id, kind);
  if (earlier) return ok(earlier.id);
  const added = await addOrderActivityNote(
    context.tx,
    context.services,
    context.tenantId,
    flowActor(context),
    order.id,
    {
      text,
      kind,
      data: { ...data, stepKey: context.stepKey },
    },
  );
  return added.ok ? ok(added.value.id) : added;
}

const writeNote: ActionHandler = async (context, config) => {
  const parsed = configOf('note', v.object({ text: TranslatedText }), config);
  if (!parsed.ok) return parsed;
  const order = await subjectOrder(context, 'note');
  if (!order.ok) return order;
  const text = await textFor(context, order.value, parsed.value.text);
  const written = await writeActivity(context, order.value, 'note', text, {});
  return written.ok ? ok({ noteId: written.value }) : written;
};

/**
 * `ai_proposal`: stores the config's plan as a pending proposal for the merchant's review
 * (`intelligence/proposals.ts`: the flow's actor must hold every operation's permission, and the
 * versions the plan names must be current), once per step key; no model is called. When the
 * flow's event names an order, its timeline also gets a `proposal` entry naming the proposal.
 * The older config `{ instruction }` is a plan with that summary and no operations.
 */
const recordProposal: ActionHandler = async (context, config) => {
  const parsed = configOf('ai_proposal', AI_PROPOSAL_CONFIG, config);
  if (!parsed.ok) return parsed;
  const plan = parsed.value;
  const { orderId, customerId } = context.subject;
  const created = await createProposal(
    context.tx,
    context.services,
    context.tenantId,
    {
      kind: 'flow',
      actor: flowActor(context),
      stepKey: context.stepKey,
      subject: {
        ...(orderId === undefined ? {} : { orderId }),
        ...(customerId === undefined ? {} : { customerId }),
      },
    },
    plan,
  );
  if (!created.ok) return created;
  const proposalId = created.value.id;
  if (orderId) {
    const order = await subjectOrder(context, 'ai_proposal');
    if (!order.ok) return order;
    const written = await writeActivity(context, order.value, 'proposal', plan.summary, {
      proposalId,
      operations: plan.operations.length,
    });
    if (!written.ok) return written;
  }
  return ok({ proposalId, status: created.value.status });
};

const AppActionConfig = v.object({
  appId: v.string(),
  action: v.string(),
  input: v.optional(v.record(v.string(), v.unknown()), {}),
});

/** The value of one fact of the flow's subject an app action's input binds (`{"$fact": name}`). */
async function factValue(
  tx: Executor,
  context: OutsideContext,
  fact: AppActionFact,
): Promise<Result<unknown>> {
  const orderId = context.subject.orderId;
  const order = orderId ? await findOrder(tx, context.tenantId, orderId) : undefined;
  if (!order) {
    return fail(
      'NOT_FOUND',
      `The app action's input binds ${fact}, but the event that started this flow names no order.`,
    );
  }
  switch (fact) {
    case 'order.id':
      return ok(order.id);
    case 'order.number':
      return ok(order.number);
    case 'order.customerId':
      return ok(order.customerId);
    case 'order.currency':
      return ok(order.currency);
    case 'order.language':
      return ok(order.language);
    case 'order.totalGross': {
      const total = (order.price.total as { gross?: unknown } | undefined)?.gross;
      return ok(typeof total === 'number' ? total : null);
    }
    case 'customer.orderCount': {
      if (!order.customerId) return ok(0);
      return ok((await findCustomerHistory(tx, context.tenantId, order.customerId))?.orderCount ?? 0);
    }
  }
}

/** The app action's input with each `{"$fact": name}` member replaced by that fact's value. */
async function boundInput(
  tx: Executor,
  context: OutsideContext,
  input: Readonly<Record<string, unknown>>,
): Promise<Result<Record<string, unknown>>> {
  const bound: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(input)) {
    const fact = (member as { $fact?: unknown } | null)?.$fact;
    if (
      typeof member === 'object' &&
      member !== null &&
      (APP_ACTION_FACTS as readonly unknown[]).includes(fact)
    ) {
      const value = await factValue(tx, context, fact as AppActionFact);
      if (!value.ok) return value;
      bound[name] = value.value;
    } else bound[name] = member;
  }
  return ok(bound);
}

/**
 * The outside part of `app_action`: an action served by the app's external service is called
 * here, with no transaction open and the step key as its idempotency key; an answer that may have
 * had its effect without an output makes the job uncertain. Every other action runs inside.
 */
const appActionOutside: OutsidePart = async (context, config) => {
  const parsed = configOf('app_action', AppActionConfig, config);
  if (!parsed.ok) return parsed;
  const { appId, action: actionId } = parsed.value;
  const db = context.services.database.db;
  const app = await findApp(db, context.tenantId, appId);
  const action = app ? manifestOf(app).actions.find((item) => item.id === actionId) : undefined;
  if (action?.kind !== 'service' || action.runtime !== 'external') return ok({ ranOutside: false });
  const input = await boundInput(db, context, parsed.value.input);
  if (!input.ok) return input;
  const called = await invokeAppAction(
    context.services,
    context.tenantId,
    { kind: 'flow', actor: flowActor(context), stepKey: context.stepKey },
    { appId, actionId, input: input.value },
  );
  if (called.ok) return ok({ ranOutside: true, output: called.value });
  return called.extensions?.outcomeUnknown === true ? { ...called, uncertain: true } : called;
};

/**
 * `app_action`: invokes a declared action of an installed app (the executor has checked the
 * actor's apps.write). Entity actions and the sandboxed module run in the step's transaction;
 * an external service ran in the outside part, whose output this records.
 */
const runAppAction: ActionHandler = withOutsidePart(appActionOutside, async (context, config) => {
  const outside = context.outside as { ranOutside?: boolean; output?: unknown } | undefined;
  if (outside?.ranOutside) return ok(outside.output);
  const parsed = configOf('app_action', AppActionConfig, config);
  if (!parsed.ok) return parsed;
  const input = await boundInput(context.tx, context, parsed.value.input);
  if (!input.ok) return input;
  return invokeAppAction(
    context.services,
    context.tenantId,
    { kind: 'flow', actor: flowActor(context), tx: context.tx, stepKey: context.stepKey },
    { appId: parsed.value.appId, actionId: parsed.value.action, input: input.value },
  );
});

/** One handler per catalog action (`@cartwright/rules-engine` ACTIONS). */
export const ACTION_HANDLERS: Readonly<Record<string, ActionHandler>> = Object.freeze({
  'action.add.customer.affiliate.and.campaign.code': addCustomerCodes,
  'action.add.order.affiliate.and.campaign.code': addOrderCodes,
  'action.add.customer.tag': customerTagAction('add'),
  'action.add.order.tag': orderTagAction('add'),
  'action.remove.customer.tag': customerTagAction('remove'),
  'action.remove.order.tag': orderTagAction('remove'),
  'action.change.customer.group': changeCustomerGroup,
  'action.change.customer.status': changeCustomerStatus,
  'action.set.customer.custom.field': setCustomerCustomField,
  'action.set.customer.group.custom.field': setCustomerGroupCustomField,
  'action.set.order.custom.field': setOrderCustomField,
  'action.set.order.state': setOrderState,
  'action.generate.document': generateDocument,
  'action.grant.download.access': grantDownloadAccess,
  'action.mail.send': sendMail,
  'action.stop.flow': stopFlow,
  note: writeNote,
  ai_proposal: recordProposal,
  app_action: runAppAction,
});
