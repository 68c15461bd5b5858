import { appEventName } from './access.ts';
import type { Field, ListItem, Manifest } from './schema.ts';
import { compareVersions } from './version.ts';

/** Every reason `diffManifests` gives, in the README's order. */
export const DIFF_CODES = [
  'APP_ID_CHANGED',
  'VERSION_DOWNGRADE',
  'VERSION_NOT_GREATER',
  'ENTITY_REMOVED',
  'FIELD_REMOVED',
  'FIELD_TYPE_CHANGED',
  'FIELD_REQUIRED',
  'FIELD_OPTIONAL',
  'FIELD_NARROWED',
  'ACTION_REMOVED',
  'ACTION_CHANGED',
  'EVENT_REMOVED',
  'WEBHOOK_REMOVED',
  'WEBHOOK_CHANGED',
] as const;
export type DiffCode = (typeof DIFF_CODES)[number];

export interface DiffReason {
  readonly code: DiffCode;
  /** JSON pointer into `next`; for a removal, the list that no longer holds the item. */
  readonly pointer: string;
  readonly message: string;
}

export interface ManifestDiff {
  /** True when `next` may replace `installed`. */
  readonly compatible: boolean;
  /** The same version with the same content: installing it again changes nothing. */
  readonly unchanged: boolean;
  readonly reasons: readonly DiffReason[];
}

type Report = (code: DiffCode, pointer: string, message: string) => void;

/**
 * Which side of a contract fields sit on. `input`: stored rows and what callers send, which must
 * stay valid, so nothing may become required or narrower. `output`: what an action answers, which
 * readers rely on, so nothing may stop being guaranteed; answers may grow.
 */
type Side = 'input' | 'output';

function isSameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const entries = (value: object) => Object.entries(value).filter(([, member]) => member !== undefined);
  const left = entries(a);
  const right = new Map(entries(b));
  return (
    left.length === right.size &&
    left.every(([key, member]) => right.has(key) && isSameJson(member, right.get(key)))
  );
}

/** Where and how the type of a field (or list item) changed, or null when it is the same type. */
function typeChange(old: Field | ListItem, next: Field | ListItem, at: string): [string, string] | null {
  if (old.type !== next.type) return [`${at}/type`, `type changed from ${old.type} to ${next.type}`];
  if (old.type === 'string' && next.type === 'string') {
    const before = 'coreReference' in old ? (old.coreReference ?? null) : null;
    const after = 'coreReference' in next ? (next.coreReference ?? null) : null;
    if (before !== after) return [`${at}/coreReference`, `coreReference changed from ${before} to ${after}`];
  }
  if (old.type === 'reference' && next.type === 'reference' && old.entity !== next.entity) {
    return [`${at}/entity`, `reference changed from entity ${old.entity} to ${next.entity}`];
  }
  if (old.type === 'list' && next.type === 'list') return typeChange(old.items, next.items, `${at}/items`);
  return null;
}

/** The bounds of a numeric type (absent keys are left out by valibot), or null for other types. */
function boundsOf(type: Field | ListItem): { min?: number | undefined; max?: number | undefined } | null {
  return type.type === 'integer' || type.type === 'number' ? type : null;
}

/** Every way `next` accepts less than `old` (same type): lower limits, lost choices, lost index. */
function narrowings(old: Field | ListItem, next: Field | ListItem, at: string): [string, string][] {
  const found: [string, string][] = [];
  if ('maxLength' in old && 'maxLength' in next && next.maxLength < old.maxLength) {
    found.push([`${at}/maxLength`, `maxLength lowered from ${old.maxLength} to ${next.maxLength}`]);
  }
  const before = boundsOf(old);
  const after = boundsOf(next);
  if (before && after) {
    // An absent bound is no bound, so adding one narrows too.
    if (after.min !== undefined && (before.min === undefined || after.min > before.min)) {
      found.push([
        `${at}/min`,
        before.min === undefined ? `min ${after.min} added` : `min raised from ${before.min} to ${after.min}`,
      ]);
    }
    if (after.max !== undefined && (before.max === undefined || after.max < before.max)) {
      found.push([
        `${at}/max`,
        before.max === undefined
          ? `max ${after.max} added`
          : `max lowered from ${before.max} to ${after.max}`,
      ]);
    }
  }
  if (old.type === 'choice' && next.type === 'choice') {
    const kept = new Set(next.choices.map((choice) => choice.value));
    for (const choice of old.choices) {
      if (!kept.has(choice.value)) found.push([`${at}/choices`, `choice "${choice.value}" removed`]);
    }
  }
  if (old.type === 'list' && next.type === 'list') {
    if (next.maxItems < old.maxItems) {
      found.push([`${at}/maxItems`, `maxItems lowered from ${old.maxItems} to ${next.maxItems}`]);
    }
    found.push(...narrowings(old.items, next.items, `${at}/items`));
  }
  if ('indexable' in old && old.indexable && !('indexable' in next && next.indexable)) {
    found.push([`${at}/indexable`, 'no longer indexable']);
  }
  return found;
}

/** The one comparison of two lists of fields: an entity's, or a service action's input or output. */
function diffFields(
  old: readonly Field[],
  next: readonly Field[],
  pointer: string,
  side: Side,
  report: Report,
): void {
  const nextByName = new Map(next.map((field, index) => [field.name, { field, index }]));
  const oldNames = new Set(old.map((field) => field.name));
  for (const before of old) {
    const found = nextByName.get(before.name);
    if (!found) {
      report('FIELD_REMOVED', pointer, `field "${before.name}" was removed`);
      continue;
    }
    const { field: after, index } = found;
    const at = `${pointer}/${index}`;
    const change = typeChange(before, after, at);
    if (change) {
      report('FIELD_TYPE_CHANGED', change[0], `"${before.name}": ${change[1]}`);
      continue;
    }
    if (side === 'output') {
      if (before.required && !after.required) {
        report('FIELD_OPTIONAL', `${at}/required`, `"${before.name}" is no longer always answered`);
      }
      continue;
    }
    if (!before.required && after.required) {
      report('FIELD_REQUIRED', `${at}/required`, `"${before.name}" became required`);
    }
    for (const [where, message] of narrowings(before, after, at)) {
      report('FIELD_NARROWED', where, `"${before.name}": ${message}`);
    }
  }
  if (side === 'input') {
    next.forEach((field, index) => {
      if (!oldNames.has(field.name) && field.required) {
        report(
          'FIELD_REQUIRED',
          `${pointer}/${index}/required`,
          `new field "${field.name}" is required, which existing rows and callers lack; add it as not required`,
        );
      }
    });
  }
}

function indexById<T extends { readonly id: string }>(
  items: readonly T[],
): Map<string, { item: T; index: number }> {
  const map = new Map<string, { item: T; index: number }>();
  items.forEach((item, index) => {
    if (!map.has(item.id)) map.set(item.id, { item, index });
  });
  return map;
}

/**
 * Whether `next` may replace the installed version of the same app, with every reason it may not
 * (spec, Versioning 2). Versions are immutable: the same version installs again only with the same
 * content (`unchanged`). Both arguments are `parseManifest` answers.
 */
export function diffManifests(installed: Manifest, next: Manifest): ManifestDiff {
  if (installed.id !== next.id) {
    const message = `this is app "${next.id}", not the installed "${installed.id}"`;
    return {
      compatible: false,
      unchanged: false,
      reasons: [{ code: 'APP_ID_CHANGED', pointer: '/id', message }],
    };
  }
  if (isSameJson(installed, next)) return { compatible: true, unchanged: true, reasons: [] };

  const reasons: DiffReason[] = [];
  const report: Report = (code, pointer, message) => reasons.push({ code, pointer, message });
  const order = compareVersions(next.version, installed.version);
  if (order < 0) {
    report(
      'VERSION_DOWNGRADE',
      '/version',
      `${next.version} is lower than the installed ${installed.version}`,
    );
  } else if (order === 0) {
    report(
      'VERSION_NOT_GREATER',
      '/version',
      `${next.version} is installed with other content; versions are immutable, so publish a higher one`,
    );
  }

  const nextEntities = indexById(next.entities);
  for (const entity of installed.entities) {
    const found = nextEntities.get(entity.id);
    if (!found) report('ENTITY_REMOVED', '/entities', `entity "${entity.id}" was removed`);
    else diffFields(entity.fields, found.item.fields, `/entities/${found.index}/fields`, 'input', report);
  }

  const nextActions = indexById(next.actions);
  for (const action of installed.actions) {
    const found = nextActions.get(action.id);
    if (!found) {
      report('ACTION_REMOVED', '/actions', `action "${action.id}" was removed`);
      continue;
    }
    const { item: after, index } = found;
    const at = `/actions/${index}`;
    if (after.kind !== action.kind) {
      report(
        'ACTION_CHANGED',
        `${at}/kind`,
        `"${action.id}": kind changed from ${action.kind} to ${after.kind}`,
      );
      continue;
    }
    if (action.emits && !after.emits) {
      report('EVENT_REMOVED', `${at}/emits`, `${appEventName(next.id, action.id)} is no longer emitted`);
    }
    if (action.kind !== 'service' && after.kind !== 'service') {
      if (action.entity !== after.entity) {
        report(
          'ACTION_CHANGED',
          `${at}/entity`,
          `"${action.id}": entity changed from ${action.entity} to ${after.entity}`,
        );
      }
    } else if (action.kind === 'service' && after.kind === 'service') {
      diffFields(action.input, after.input, `${at}/input`, 'input', report);
      diffFields(action.output, after.output, `${at}/output`, 'output', report);
    }
  }

  const nextWebhooks = indexById(next.webhooks);
  for (const webhook of installed.webhooks) {
    const found = nextWebhooks.get(webhook.id);
    if (!found)
      report('WEBHOOK_REMOVED', '/webhooks', `webhook "${webhook.id}" was removed; its senders would fail`);
    else if (found.item.action !== webhook.action) {
      report(
        'WEBHOOK_CHANGED',
        `/webhooks/${found.index}/action`,
        `webhook "${webhook.id}" now starts "${found.item.action}" instead of "${webhook.action}"`,
      );
    }
  }
  return { compatible: reasons.length === 0, unchanged: false, reasons };
}
