import { ACTIONS } from '@cartwright/rules-engine';
import * as v from 'valibot';
import { isJsonValue, MAX_JSON_DEPTH } from './json.ts';
import { AI_PROPOSAL_CONFIG } from './proposals.ts';

export { isJsonValue } from './json.ts';

/**
 * The canonical config of every catalog action and the check that produces it. Aliases are
 * resolved to the catalog's key (`tagIds` → `tags`, `customerGroupId` → `groupId`), text is
 * trimmed, tag lists are de-duplicated, and unknown keys are refused. The options the spec lists
 * as unsupported (force_transition, multi-state arrays, arbitrary customer-group ids, custom
 * document renderers and types, arbitrary mail templates, recipients and attachments) have their
 * own issue code so a client can tell them from a plain mistake.
 */

export type ActionConfigIssueCode =
  | 'FLOW_UNKNOWN_ACTION'
  | 'FLOW_INVALID_ACTION_CONFIG'
  | 'FLOW_UNSUPPORTED_OPTION';

/** One reason a config is refused; `pointer` is a JSON pointer into the config as given. */
export interface ActionConfigIssue {
  readonly code: ActionConfigIssueCode;
  readonly message: string;
  readonly pointer: string;
}

export type ActionConfigResult =
  | { readonly ok: true; readonly config: Record<string, unknown> }
  | { readonly ok: false; readonly issues: ActionConfigIssue[] };

type ConfigSchema = v.GenericSchema<unknown, Record<string, unknown>>;

const MAX_TEXT = 2000;
const MAX_NAME = 100;
const MAX_TAGS = 100;

const text = (max: number) =>
  v.pipe(
    v.string('expected text'),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(max, `at most ${max} characters`),
  );

const Tags = v.pipe(
  v.array(text(MAX_NAME), 'expected a list of tags'),
  v.minLength(1, 'name at least one tag'),
  v.maxLength(MAX_TAGS, `at most ${MAX_TAGS} tags`),
  v.transform((tags) => [...new Set(tags)]),
);

/** An affiliate or campaign code to write, or `null` to clear it. */
const Code = v.optional(v.nullable(text(MAX_NAME)));

/** A language code such as `de` or `de-CH`, as everywhere else in Cartwright. */
const LanguageCode = v.pipe(
  v.string(),
  v.regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'expected a language code such as de or de-CH'),
);
const TextPerLanguage = v.pipe(
  v.record(LanguageCode, text(MAX_TEXT)),
  v.check((texts) => Object.keys(texts).length > 0, 'give the text in at least one language'),
);

const JsonValue = v.custom<unknown>(
  isJsonValue,
  `expected a JSON value (nested at most ${MAX_JSON_DEPTH} levels)`,
);

const TAGS_CONFIG = v.strictObject({ tags: Tags });
const CODES_CONFIG = v.pipe(
  v.strictObject({ affiliateCode: Code, campaignCode: Code }),
  v.check(
    (config) => config.affiliateCode !== undefined || config.campaignCode !== undefined,
    'set affiliateCode, campaignCode or both',
  ),
);
const CUSTOM_FIELD_CONFIG = v.strictObject({ field: text(MAX_NAME), value: JsonValue });

/**
 * The facts of a flow's subject an `app_action` input may bind (`{"$fact": name}`): the order the
 * starting event names and its customer. The service reads them when the step runs.
 */
export const APP_ACTION_FACTS = [
  'order.id',
  'order.number',
  'order.customerId',
  'order.currency',
  'order.language',
  'order.totalGross',
  'customer.orderCount',
] as const;
export type AppActionFact = (typeof APP_ACTION_FACTS)[number];

/** Whether a value is shaped as a fact binding: an object with a `$fact` member. */
function isBindingShaped(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, '$fact')
  );
}

/** An app action's input member: a JSON value, or a binding `{"$fact": name}` to a fact of the flow's subject. */
const AppInputMember = v.pipe(
  JsonValue,
  v.check(
    (value) =>
      !isBindingShaped(value) ||
      (Object.keys(value).length === 1 && (APP_ACTION_FACTS as readonly unknown[]).includes(value.$fact)),
    `a binding is {"$fact": name} with a name of ${APP_ACTION_FACTS.join(', ')}`,
  ),
);

const GROUPS = ['consumer', 'business'] as const;
const ORDER_STATE_KINDS = ['order', 'payment', 'delivery'] as const;
const DOCUMENT_KINDS = ['invoice', 'delivery_note'] as const;
const MAIL_TEMPLATES = ['order_confirmation'] as const;

/** The canonical config schema of every catalog action, by action name. */
export const ACTION_CONFIG_SCHEMAS: Readonly<Record<string, ConfigSchema>> = {
  'action.add.customer.affiliate.and.campaign.code': CODES_CONFIG,
  'action.add.order.affiliate.and.campaign.code': CODES_CONFIG,
  'action.add.customer.tag': TAGS_CONFIG,
  'action.add.order.tag': TAGS_CONFIG,
  'action.remove.customer.tag': TAGS_CONFIG,
  'action.remove.order.tag': TAGS_CONFIG,
  'action.change.customer.group': v.strictObject({
    groupId: v.picklist(GROUPS, 'expected consumer or business'),
  }),
  'action.change.customer.status': v.strictObject({ active: v.boolean('expected true or false') }),
  'action.set.customer.custom.field': CUSTOM_FIELD_CONFIG,
  'action.set.customer.group.custom.field': CUSTOM_FIELD_CONFIG,
  'action.set.order.custom.field': CUSTOM_FIELD_CONFIG,
  'action.set.order.state': v.strictObject({
    kind: v.picklist(ORDER_STATE_KINDS, 'expected order, payment or delivery'),
    state: text(MAX_NAME),
  }),
  'action.generate.document': v.strictObject({
    kind: v.picklist(DOCUMENT_KINDS, 'expected invoice or delivery_note'),
  }),
  'action.grant.download.access': v.strictObject({ value: v.boolean('expected true or false') }),
  'action.mail.send': v.strictObject({
    templateId: v.picklist(MAIL_TEMPLATES, 'expected order_confirmation'),
  }),
  'action.stop.flow': v.strictObject({}),
  note: v.strictObject({
    text: v.union(
      [text(MAX_TEXT), TextPerLanguage],
      `expected a non-empty text of at most ${MAX_TEXT} characters, or such a text per language code`,
    ),
  }),
  ai_proposal: AI_PROPOSAL_CONFIG,
  app_action: v.strictObject({
    appId: text(MAX_NAME),
    action: text(MAX_NAME),
    input: v.optional(
      v.pipe(
        v.custom<Record<string, unknown>>(
          (input) => typeof input === 'object' && input !== null && !Array.isArray(input),
          'expected an object of input members',
        ),
        v.record(v.pipe(v.string(), v.maxLength(MAX_NAME)), AppInputMember),
        v.maxEntries(64),
      ),
      {},
    ),
  }),
};

/** An unsupported option found in a config: the top-level key it sits under and why. */
interface Unsupported {
  readonly key: string;
  readonly message: string;
}

type UnsupportedCheck = (config: Readonly<Record<string, unknown>>) => Unsupported[];

const keysPresent =
  (keys: readonly string[], message: (key: string) => string): UnsupportedCheck =>
  (config) =>
    keys.filter((key) => Object.hasOwn(config, key)).map((key) => ({ key, message: message(key) }));

const stringOutside =
  (key: string, allowed: readonly string[], message: string): UnsupportedCheck =>
  (config) => {
    const value = config[key];
    return typeof value === 'string' && !allowed.includes(value) ? [{ key, message }] : [];
  };

const all =
  (...checks: UnsupportedCheck[]): UnsupportedCheck =>
  (config) =>
    checks.flatMap((check) => check(config));

/** The spec's unsupported options, checked on the alias-resolved config. */
const UNSUPPORTED: Readonly<Record<string, UnsupportedCheck>> = {
  'action.change.customer.group': stringOutside(
    'groupId',
    GROUPS,
    'Only the native customer groups consumer and business are supported; arbitrary customer-group ids are not.',
  ),
  'action.set.order.state': all(
    keysPresent(['force_transition', 'forceTransition'], (key) => `${key} is not supported.`),
    (config) =>
      Array.isArray(config.state)
        ? [{ key: 'state', message: 'Multi-state arrays are not supported; give one state.' }]
        : [],
  ),
  'action.generate.document': all(
    keysPresent(['renderer', 'documentRenderer'], () => 'Custom document renderers are not supported.'),
    stringOutside(
      'kind',
      DOCUMENT_KINDS,
      'Only invoice and delivery_note documents are supported; custom document types are not.',
    ),
  ),
  'action.mail.send': all(
    stringOutside(
      'templateId',
      MAIL_TEMPLATES,
      'Only the order_confirmation template is supported; arbitrary mail templates are not.',
    ),
    keysPresent(
      ['recipient', 'recipients', 'attachments', 'documentTypeIds'],
      (key) => `${key} is not supported: the mail goes to the order’s customer, without attachments.`,
    ),
  ),
};

const DEFINITIONS = new Map(ACTIONS.map((definition) => [definition.name, definition]));
/** Per action: each alias the catalog allows and the canonical key it stands for. */
const ALIASES: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map(
  ACTIONS.map((definition) => [
    definition.name,
    new Map(
      definition.configKeys.flatMap((key) =>
        key.alias === undefined ? [] : [[key.alias, key.name] as const],
      ),
    ),
  ]),
);

/** True when `name` is an action of the catalog. */
export function isKnownAction(name: string): boolean {
  return DEFINITIONS.has(name) && Object.hasOwn(ACTION_CONFIG_SCHEMAS, name);
}

/** Escapes one JSON pointer segment (RFC 6901). */
export function pointerSegment(key: string | number): string {
  return String(key).replaceAll('~', '~0').replaceAll('/', '~1');
}

/** How many characters of a caller's string a message repeats (as the rules engine's messages). */
const ECHO_LIMIT = 100;

/** `text` cut to its first `ECHO_LIMIT` characters and "…" (never inside a surrogate pair). */
export function clip(text: string): string {
  if (text.length <= ECHO_LIMIT) return text;
  const code = text.charCodeAt(ECHO_LIMIT - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? ECHO_LIMIT - 1 : ECHO_LIMIT;
  return `${text.slice(0, end)}…`;
}

/** A caller's value as a message quotes it: JSON, a string cut by `clip` before quoting. */
export function echo(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(clip(value)) : clip(String(JSON.stringify(value)));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Checks an action's config and returns its canonical form, or every issue found. Never throws.
 */
export function normalizeActionConfig(action: string, config: unknown): ActionConfigResult {
  const definition = DEFINITIONS.get(action);
  const schema = Object.hasOwn(ACTION_CONFIG_SCHEMAS, action) ? ACTION_CONFIG_SCHEMAS[action] : undefined;
  if (definition === undefined || schema === undefined) {
    return {
      ok: false,
      issues: [
        {
          code: 'FLOW_UNKNOWN_ACTION',
          message: `Unknown action ${echo(action)}; only the catalog's actions are supported (extension action sets are not).`,
          pointer: '',
        },
      ],
    };
  }
  if (!isPlainObject(config)) {
    return {
      ok: false,
      issues: [{ code: 'FLOW_INVALID_ACTION_CONFIG', message: 'The config is an object.', pointer: '' }],
    };
  }

  const issues: ActionConfigIssue[] = [];
  // Resolve aliases; `given` maps each canonical key back to the key the caller used, for pointers.
  const resolved: Record<string, unknown> = {};
  const given = new Map<string, string>();
  const aliases = ALIASES.get(action) ?? new Map<string, string>();
  for (const [key, value] of Object.entries(config)) {
    const canonical = aliases.get(key);
    if (canonical === undefined) {
      resolved[key] = value;
      given.set(key, key);
    } else if (Object.hasOwn(config, canonical)) {
      issues.push({
        code: 'FLOW_INVALID_ACTION_CONFIG',
        message: `Give ${canonical} or its alias ${clip(key)}, not both.`,
        pointer: `/${pointerSegment(key)}`,
      });
    } else {
      resolved[canonical] = value;
      given.set(canonical, key);
    }
  }
  const pointerOf = (path: readonly PropertyKey[]): string =>
    path
      .map(
        (key, index) =>
          `/${pointerSegment(index === 0 ? (given.get(String(key)) ?? String(key)) : String(key))}`,
      )
      .join('');

  const unsupported = UNSUPPORTED[action]?.(resolved) ?? [];
  for (const finding of unsupported) {
    issues.push({
      code: 'FLOW_UNSUPPORTED_OPTION',
      message: finding.message,
      pointer: pointerOf([finding.key]),
    });
  }
  const covered = new Set(unsupported.map((finding) => finding.key));

  const result = v.safeParse(schema, resolved);
  if (!result.success) {
    for (const issue of result.issues) {
      const path = (issue.path ?? []).map((item) => item.key as PropertyKey);
      if (path.length > 0 && covered.has(String(path[0]))) continue;
      issues.push({
        code: 'FLOW_INVALID_ACTION_CONFIG',
        message: describe(issue, path),
        pointer: pointerOf(path),
      });
    }
  }
  if (issues.length > 0 || !result.success) return { ok: false, issues };
  return { ok: true, config: result.output };
}

function describe(issue: v.BaseIssue<unknown>, path: readonly PropertyKey[]): string {
  const name = path[path.length - 1];
  if (issue.type === 'strict_object' && issue.expected === 'never' && name !== undefined) {
    return `The key ${clip(String(name))} is not allowed.`;
  }
  if (issue.input === undefined && name !== undefined && path.length === 1) {
    return `The key ${clip(String(name))} is required.`;
  }
  // valibot quotes the received value whole (`"text"`); a message repeats only its start.
  const { received } = issue;
  const quoted = received.length >= 2 && received.startsWith('"') && received.endsWith('"');
  const message = issue.message.replace(received, () =>
    quoted ? `"${clip(received.slice(1, -1))}"` : clip(received),
  );
  return name === undefined ? message : `${clip(String(name))}: ${message}`;
}
