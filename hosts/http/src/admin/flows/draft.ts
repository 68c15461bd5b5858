import { FLOW_LIMITS, FLOW_NODE_KINDS, type FlowNodeKind, validatePipeline } from '@cartwright/flow-graph';
import type { Locale, MessageKey, Values } from '../i18n.ts';
import type { FormBody } from '../kit.ts';
import { formatParam, parseParam } from '../rules/rule-form.ts';

// The flow editor's draft: a flow's graph as the form edits it (one fieldset per node, edges typed
// as node ids), read from a stored flow or from a posted form, turned back into `data.pipeline`,
// and checked by the pure `validatePipeline` of @cartwright/flow-graph so every problem is pinned
// to its node before anything is saved (decision 0047, "Flows").

export const DELAY_UNITS = ['seconds', 'minutes', 'hours', 'days'] as const;
export type DelayUnit = (typeof DELAY_UNITS)[number];
const UNIT_SECONDS: Readonly<Record<DelayUnit, number>> = {
  seconds: 1,
  minutes: 60,
  hours: 3600,
  days: 86_400,
};

/** A config key of a catalog action as `automation.catalog` answers it (the fields the editor reads). */
export interface CatalogConfigKey {
  readonly name: string;
  readonly label: string;
  readonly required: boolean;
  /** string, text, integer, boolean, choice, reference, list or json (the catalog's `input`). */
  readonly input: string;
  readonly choices?: readonly string[];
  /** What a `reference` names: `app` (an installed app) or `appAction` (an action of that app). */
  readonly references?: string;
  /** Another name the action accepts for this key (e.g. `tagIds` for `tags`). */
  readonly alias?: string;
}

/** A catalog action as `automation.catalog` answers it (the fields the editor reads). */
export interface CatalogAction {
  readonly name: string;
  readonly label: string;
  readonly configKeys: readonly CatalogConfigKey[];
}

/**
 * How the editor asks for one config key of an action: `mode` is the catalog's input, or `json`
 * when the key is unknown to the action or its value does not fit the input (a note's text per
 * language, a code cleared with null), so every value can be shown and kept.
 */
export interface ConfigField {
  readonly key: string;
  readonly spec: CatalogConfigKey | null;
  readonly mode: string;
  readonly value: unknown;
}

/** The rule editor's value types the config inputs are read and written with (rules/rule-form.ts). */
const PARAM_TYPE: Readonly<Record<string, string>> = {
  integer: 'int',
  boolean: 'bool',
  list: 'string[]',
  json: 'json',
};
const paramType = (mode: string): string => PARAM_TYPE[mode] ?? 'string';

function fits(mode: string, value: unknown): boolean {
  if (value === undefined) return true;
  switch (mode) {
    case 'integer':
      return Number.isSafeInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'list':
      return (
        Array.isArray(value) && value.every((entry) => typeof entry === 'string' && !entry.includes('\n'))
      );
    case 'json':
      return true;
    default:
      return typeof value === 'string' && (mode === 'text' || !/[\r\n]/.test(value));
  }
}

/** The config's fields: the action's keys in catalog order, then keys the action does not know. */
export function configFields(
  action: CatalogAction,
  config: Readonly<Record<string, unknown>>,
): ConfigField[] {
  const known = new Set(action.configKeys.map((key) => key.name));
  return [
    ...action.configKeys.map((spec) => {
      const value = Object.hasOwn(config, spec.name) ? config[spec.name] : undefined;
      return { key: spec.name, spec, mode: fits(spec.input, value) ? spec.input : 'json', value };
    }),
    ...Object.keys(config)
      .filter((key) => !known.has(key))
      .map((key) => ({ key, spec: null, mode: 'json', value: config[key] })),
  ];
}

/** A config value as its input shows it (empty when unset). */
export function fieldText(field: ConfigField, locale: Locale): string {
  if (field.mode === 'json' && field.value !== undefined) {
    return typeof field.value === 'string' ? field.value : JSON.stringify(field.value, null, 2);
  }
  return formatParam(paramType(field.mode), field.value, locale);
}

/** The form field name of a config key of node `index` (its id is by position: `n-{index}-c{k}`). */
export const configFieldName = (index: number, key: string): string => `n-${index}-c:${key}`;

/** One node as the form shows it: every field a string, whatever its kind. */
export interface DraftNode {
  readonly id: string;
  readonly kind: FlowNodeKind;
  readonly conditionMode: 'rule' | 'tree';
  readonly ruleId: string;
  readonly tree: string;
  readonly onTrue: string;
  readonly onFalse: string;
  readonly action: string;
  /** An action's config as compact JSON (typed inputs are written into it when a form is read). */
  readonly config: string;
  readonly amount: string;
  readonly unit: DelayUnit;
  readonly next: string;
}

export interface Draft {
  /** The stored revision the draft was opened at (0 for a new flow). */
  readonly revision: number;
  readonly name: string;
  readonly trigger: string;
  readonly active: boolean;
  readonly entry: string;
  readonly nodes: readonly DraftNode[];
}

/**
 * A problem's text in the UI language: a message of the flows area with its facts. `ids` (node
 * ids) are joined as the UI language lists them and given as `{ids}`; `detail` is the original
 * English message of the check, shown as secondary technical text where the message cannot say
 * everything (e.g. a nested value's own rule).
 */
export interface IssueText {
  readonly key: MessageKey;
  readonly values?: Values;
  readonly ids?: readonly string[];
  readonly detail?: string;
}

/** A problem of the draft: pinned to node positions (empty: the graph as a whole). */
export interface DraftIssue {
  readonly nodes: readonly number[];
  /** The config key of the (one) action node the issue is about, when its pointer names one. */
  readonly key?: string;
  readonly text: IssueText;
}

/** The most nodes a posted form may carry (validatePipeline's own input bound). */
const MAX_FORM_NODES = 1000;
const MAX_FIELD = 100_000;

const BLANK: Omit<DraftNode, 'id' | 'kind'> = {
  conditionMode: 'tree',
  ruleId: '',
  tree: '',
  onTrue: '',
  onFalse: '',
  action: '',
  config: '{}',
  amount: '1',
  unit: 'minutes',
  next: '',
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const edge = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A delay in the largest unit that divides it. */
export function delayParts(seconds: number): { amount: string; unit: DelayUnit } {
  for (const unit of ['days', 'hours', 'minutes'] as const) {
    if (seconds >= UNIT_SECONDS[unit] && seconds % UNIT_SECONDS[unit] === 0) {
      return { amount: String(seconds / UNIT_SECONDS[unit]), unit };
    }
  }
  return { amount: String(seconds), unit: 'seconds' };
}

/** The saved rule a condition names, when it is exactly a `ruleReference`. */
export function referencedRule(condition: unknown): string | null {
  return isRecord(condition) && condition.type === 'ruleReference' && typeof condition.ruleId === 'string'
    ? condition.ruleId
    : null;
}

/** A stored node as the form shows it. */
function draftNodeOf(node: unknown): DraftNode {
  const raw = isRecord(node) ? node : {};
  const kind = (FLOW_NODE_KINDS as readonly unknown[]).includes(raw.kind)
    ? (raw.kind as FlowNodeKind)
    : 'stop';
  const id = typeof raw.id === 'string' ? raw.id : '';
  const ruleId = referencedRule(raw.condition);
  const delay =
    typeof raw.seconds === 'number' ? delayParts(raw.seconds) : { amount: '1', unit: 'minutes' as const };
  return {
    ...BLANK,
    id,
    kind,
    conditionMode: ruleId === null ? 'tree' : 'rule',
    ruleId: ruleId ?? '',
    tree: kind === 'condition' && ruleId === null ? JSON.stringify(raw.condition ?? {}, null, 2) : '',
    onTrue: edge(raw.on_true),
    onFalse: edge(raw.on_false),
    action: typeof raw.action === 'string' ? raw.action : '',
    config: kind === 'action' ? JSON.stringify(raw.config ?? {}) : '{}',
    ...delay,
    next: edge(raw.next),
  };
}

/** A stored flow (its `data`, revision and switch) as the editor's draft. */
export function draftOf(data: unknown, revision: number, active: boolean, locale: string): Draft {
  const flow = isRecord(data) ? data : {};
  const names = isRecord(flow.name) ? flow.name : {};
  const name =
    names[locale] ?? names[typeof flow.locale === 'string' ? flow.locale : 'en'] ?? Object.values(names)[0];
  const pipeline = isRecord(flow.pipeline) ? flow.pipeline : {};
  return {
    revision,
    name: typeof name === 'string' ? name : '',
    trigger: typeof flow.trigger === 'string' ? flow.trigger : 'order.placed',
    active,
    entry: edge(pipeline.entry),
    nodes: Array.isArray(pipeline.nodes) ? pipeline.nodes.map(draftNodeOf) : [],
  };
}

/** A new flow: started by a placed order, one stop node. */
export function newDraft(): Draft {
  return {
    revision: 0,
    name: '',
    trigger: 'order.placed',
    active: true,
    entry: 'end',
    nodes: [{ ...BLANK, id: 'end', kind: 'stop' }],
  };
}

const field = (form: FormBody, name: string): string => {
  const value = form[name];
  const text = typeof value === 'string' ? value : Array.isArray(value) ? String(value.at(-1) ?? '') : '';
  return text.length > MAX_FIELD ? text.slice(0, MAX_FIELD) : text;
};

function parsedConfig(text: string): Record<string, unknown> | null {
  const parsed = parsedJson(text.trim() === '' ? '{}' : text);
  return parsed.ok && isRecord(parsed.value) ? parsed.value : null;
}

/**
 * An action node's config from the form: the carried config (`n-{i}-config`) with each typed input
 * written over its key. An input whose text is what the carried value shows keeps that value
 * exactly (so an untouched config round-trips), an emptied one removes the key, an absent one
 * leaves it. Inputs rendered for another action (`n-{i}-for`) are not read: the config starts empty.
 */
function configFromForm(
  at: (name: string) => string,
  has: (name: string) => boolean,
  index: number,
  action: string,
  actions: readonly CatalogAction[],
  locale: Locale,
): string {
  const carried = at('config');
  const definition = actions.find((candidate) => candidate.name === action);
  if (!definition) return carried;
  if (has(`n-${index}-for`) && at('for') !== action) return '{}';
  const config = parsedConfig(carried);
  if (config === null) return carried;
  for (const field of configFields(definition, config)) {
    const name = configFieldName(index, field.key).slice(`n-${index}-`.length);
    if (!has(`n-${index}-${name}`)) continue;
    const text = at(name);
    if (text === fieldText(field, locale)) continue;
    const value = parseParam(paramType(field.mode), text, locale);
    if (value === undefined) delete config[field.key];
    else config[field.key] = value;
  }
  return JSON.stringify(config);
}

/**
 * The draft a posted editor form carries (unknown kinds and units fall back to safe ones); the
 * catalog's actions type the config inputs, numbers are read as `locale` writes them.
 */
export function draftFromForm(
  form: FormBody,
  actions: readonly CatalogAction[] = [],
  locale: Locale = 'en',
): Draft {
  const count = Math.min(Math.max(Number.parseInt(field(form, 'count'), 10) || 0, 0), MAX_FORM_NODES);
  const nodes: DraftNode[] = [];
  for (let index = 0; index < count; index += 1) {
    const at = (name: string) => field(form, `n-${index}-${name}`);
    const has = (name: string) => form[name] !== undefined;
    const kind = at('kind');
    if (!(FLOW_NODE_KINDS as readonly string[]).includes(kind)) continue;
    const unit = at('unit');
    nodes.push({
      id: at('id').trim(),
      kind: kind as FlowNodeKind,
      conditionMode: at('mode') === 'rule' ? 'rule' : 'tree',
      ruleId: at('rule'),
      tree: at('tree'),
      onTrue: at('true').trim(),
      onFalse: at('false').trim(),
      action: at('action'),
      config:
        kind === 'action' ? configFromForm(at, has, index, at('action'), actions, locale) : at('config'),
      amount: at('amount').trim(),
      unit: (DELAY_UNITS as readonly string[]).includes(unit) ? (unit as DelayUnit) : 'seconds',
      next: at('next').trim(),
    });
  }
  const revision = Number.parseInt(field(form, 'revision'), 10);
  return {
    revision: Number.isSafeInteger(revision) && revision >= 0 ? revision : 0,
    name: field(form, 'name').trim(),
    trigger: field(form, 'trigger').trim(),
    active: field(form, 'active') === 'on',
    entry: field(form, 'entry').trim(),
    nodes,
  };
}

/** An id of `kind` no node of the draft has yet (`delay-1`, `delay-2`, …). */
function freshId(draft: Draft, kind: FlowNodeKind): string {
  const taken = new Set(draft.nodes.map((node) => node.id));
  let n = 1;
  while (taken.has(`${kind}-${n}`)) n += 1;
  return `${kind}-${n}`;
}

/** The draft with a new node of `kind` at the end (unconnected until an edge names it). */
export function withNode(draft: Draft, kind: FlowNodeKind, defaultAction: string): Draft {
  const node: DraftNode = {
    ...BLANK,
    id: freshId(draft, kind),
    kind,
    tree: kind === 'condition' ? '{\n  "type": "alwaysValid"\n}' : '',
    action: kind === 'action' ? defaultAction : '',
    config: '{}',
  };
  return { ...draft, nodes: [...draft.nodes, node] };
}

/** The draft without the node at `index`. */
export function withoutNode(draft: Draft, index: number): Draft {
  return { ...draft, nodes: draft.nodes.filter((_, at) => at !== index) };
}

const orNull = (id: string): string | null => (id === '' ? null : id);

function parsedJson(text: string): { ok: true; value: unknown } | { ok: false; detail: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, detail: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The draft as `data.pipeline`, with the problems found on the way (unreadable JSON, a delay that is
 * no whole number, no rule chosen) pinned to their nodes; such a field is left out, so the graph's
 * own check still runs on the rest.
 */
export function pipelineOf(draft: Draft): { pipeline: unknown; issues: DraftIssue[] } {
  const issues: DraftIssue[] = [];
  const nodes = draft.nodes.map((node, index) => {
    const pin = (key: MessageKey, values?: Values) =>
      issues.push({ nodes: [index], text: values ? { key, values } : { key } });
    switch (node.kind) {
      case 'condition': {
        let condition: unknown = { type: 'alwaysValid' };
        if (node.conditionMode === 'rule') {
          if (node.ruleId === '') pin('flows.noRuleChosen');
          else condition = { type: 'ruleReference', ruleId: node.ruleId };
        } else {
          const tree = parsedJson(node.tree);
          if (tree.ok) condition = tree.value;
          else pin('flows.badJson', { detail: tree.detail });
        }
        return {
          id: node.id,
          kind: node.kind,
          condition,
          on_true: orNull(node.onTrue),
          on_false: orNull(node.onFalse),
        };
      }
      case 'action': {
        const config = parsedJson(node.config.trim() === '' ? '{}' : node.config);
        if (!config.ok) pin('flows.badJson', { detail: config.detail });
        return {
          id: node.id,
          kind: node.kind,
          action: node.action,
          config: config.ok ? config.value : {},
          next: orNull(node.next),
        };
      }
      case 'delay': {
        const amount = /^\d{1,9}$/.test(node.amount) ? Number(node.amount) : 0;
        if (amount < 1) pin('flows.badAmount');
        return {
          id: node.id,
          kind: node.kind,
          seconds: Math.max(amount, 1) * UNIT_SECONDS[node.unit],
          next: orNull(node.next),
        };
      }
      default:
        return { id: node.id, kind: node.kind };
    }
  });
  return { pipeline: { entry: draft.entry, nodes }, issues };
}

/** The config key a pointer names below an action node (`/nodes/N/config/<key>…`), if any. */
function keyOf(draft: Draft, positions: readonly number[], pointer: string): string | undefined {
  const at = /^\/nodes\/(\d+)\/config\/([^/]+)/.exec(pointer);
  if (!at || positions.length !== 1 || positions[0] !== Number(at[1])) return undefined;
  if (draft.nodes[positions[0]]?.kind !== 'action') return undefined;
  return unescapeSegment(at[2]!);
}

const unescapeSegment = (segment: string): string => segment.replaceAll('~1', '/').replaceAll('~0', '~');

/** The positions of the nodes an issue names: by id, else by the `/nodes/N` of its pointer. */
function positionsOf(draft: Draft, nodeIds: readonly string[], pointer: string): number[] {
  const byId = draft.nodes.flatMap((node, index) => (nodeIds.includes(node.id) ? [index] : []));
  if (byId.length > 0) return byId;
  const at = /^\/nodes\/(\d+)(?:\/|$)/.exec(pointer);
  const index = at ? Number(at[1]) : -1;
  return index >= 0 && index < draft.nodes.length ? [index] : [];
}

/** An issue of the graph's check as the editor reads it (a `FlowIssue`, or a refusal's error). */
export interface GraphIssue {
  readonly code: string | undefined;
  /** A JSON pointer into the pipeline (`/entry`, `/nodes/3/config/tags`). */
  readonly pointer: string;
  readonly nodeIds: readonly string[];
  /** The check's English message: kept only as the detail where the code cannot say everything. */
  readonly message: string;
}

const EDGE_FIELDS: Readonly<Record<string, (node: DraftNode) => string>> = {
  on_true: (node) => node.onTrue,
  on_false: (node) => node.onFalse,
  next: (node) => node.next,
};

/**
 * A config issue of an action node in words: a required key missing (named by its catalog label),
 * a value of the wrong kind (the input the catalog expects), a key the action does not know, an
 * alias given next to its key, an unsupported option; `path` is the pointer below `config`.
 */
function configIssueText(
  node: DraftNode,
  actions: readonly CatalogAction[],
  code: string,
  path: readonly string[],
  detail: string,
): IssueText {
  const action = actions.find((candidate) => candidate.name === node.action);
  const [key] = path;
  if (key === undefined) return { key: 'flows.issue.config', detail };
  const spec = action?.configKeys.find((candidate) => candidate.name === key);
  const label = spec?.label ?? key;
  if (code === 'FLOW_UNSUPPORTED_OPTION')
    return { key: 'flows.issue.unsupported', values: { label }, detail };
  const config = parsedConfig(node.config) ?? {};
  const present = Object.hasOwn(config, key);
  if (spec === undefined) {
    const aliased = action?.configKeys.find((candidate) => candidate.alias === key);
    if (present && aliased) return { key: 'flows.issue.alias', values: { key, label: aliased.label } };
    if (present && action) return { key: 'flows.issue.notASetting', values: { key } };
    return { key: 'flows.issue.other', detail };
  }
  if (!present && path.length === 1) return { key: 'flows.issue.required', values: { label } };
  if (path.length === 1) return { key: 'flows.issue.expects', values: { label, input: spec.input }, detail };
  return { key: 'flows.issue.nested', values: { label }, detail };
}

/**
 * An issue of the graph in the UI language's words, from its code, its pointer, the nodes it names
 * and the draft itself (the edge's target, the delay's length, the action's catalog labels) — never
 * from its English message, which stays only as the detail where the code cannot say everything.
 */
export function issueTextOf(draft: Draft, actions: readonly CatalogAction[], issue: GraphIssue): IssueText {
  const detail = issue.message;
  const path = issue.pointer.split('/').slice(1).map(unescapeSegment);
  const index = path[0] === 'nodes' && /^\d+$/.test(path[1] ?? '') ? Number(path[1]) : -1;
  const node = index >= 0 ? draft.nodes[index] : undefined;
  const field = path[2];
  const id = node?.id ?? issue.nodeIds[0] ?? '';
  const ids = issue.nodeIds.length > 0 ? issue.nodeIds : node ? [node.id] : [];
  switch (issue.code) {
    case 'FLOW_EDGE_MISSING': {
      if (issue.pointer === '/entry')
        return { key: 'flows.issue.entryMissing', values: { target: draft.entry } };
      const target = field === undefined ? undefined : EDGE_FIELDS[field];
      if (node && target) {
        return { key: 'flows.issue.edgeMissing', values: { id, edge: field!, target: target(node) } };
      }
      break;
    }
    case 'FLOW_DUPLICATE_NODE':
      if (id !== '') return { key: 'flows.issue.duplicate', values: { id } };
      break;
    case 'FLOW_CYCLE':
      if (ids.length > 0) return { key: 'flows.issue.cycle', values: { count: ids.length }, ids };
      break;
    case 'FLOW_UNREACHABLE':
      if (ids.length > 0) return { key: 'flows.issue.unreachable', values: { count: ids.length }, ids };
      break;
    case 'FLOW_SIZE':
      if (draft.nodes.length === 0) return { key: 'flows.issue.empty' };
      return { key: 'flows.issue.tooLarge', values: { max: FLOW_LIMITS.reachableNodes }, detail };
    case 'FLOW_DELAY_TOO_LONG':
      if (node?.kind === 'delay' && /^\d{1,9}$/.test(node.amount)) {
        return {
          key: 'flows.issue.delayTooLong',
          values: { max: FLOW_LIMITS.delaySeconds / 86_400, amount: Number(node.amount), unit: node.unit },
        };
      }
      break;
    case 'FLOW_UNKNOWN_ACTION':
      if (node?.kind === 'action') {
        return node.action === ''
          ? { key: 'flows.issue.noAction' }
          : { key: 'flows.issue.unknownAction', values: { action: node.action } };
      }
      break;
    case 'FLOW_INVALID_ACTION_CONFIG':
    case 'FLOW_UNSUPPORTED_OPTION':
      if (node?.kind === 'action' && field === 'config') {
        return configIssueText(node, actions, issue.code, path.slice(3), detail);
      }
      break;
    case 'FLOW_INVALID_GRAPH':
      if (issue.pointer === '/entry') return { key: 'flows.issue.noEntry' };
      if (node && path.length === 3 && field === 'id') return { key: 'flows.issue.noId' };
      if (node && path.length === 3 && field === 'action') return { key: 'flows.issue.noAction' };
      if (node?.kind === 'delay' && path.length === 3 && field === 'seconds')
        return { key: 'flows.badAmount' };
      break;
  }
  // A rule issue code of a condition tree: the tree's own check says what is wrong.
  if (node?.kind === 'condition' && field === 'condition') {
    return { key: 'flows.issue.condition', values: { id }, detail };
  }
  return { key: 'flows.issue.other', detail };
}

/**
 * Every problem of the draft, each pinned to its nodes: the form's own, then the graph's (in the
 * UI language, the config keys named by the labels of `actions`, the catalog in that language).
 */
export function checkDraft(
  draft: Draft,
  actions: readonly CatalogAction[] = [],
): { pipeline: unknown; issues: DraftIssue[] } {
  const { pipeline, issues } = pipelineOf(draft);
  const graph = validatePipeline(pipeline);
  if (!graph.ok) {
    for (const issue of graph.issues) {
      const nodes = positionsOf(draft, issue.nodeIds, issue.pointer);
      const key = keyOf(draft, nodes, issue.pointer);
      issues.push({ nodes, ...(key === undefined ? {} : { key }), text: issueTextOf(draft, actions, issue) });
    }
  }
  return { pipeline: graph.ok ? graph.pipeline : pipeline, issues };
}

/**
 * An operation's refusal of a save, pinned by the pointers of its errors (`/data/pipeline/nodes/N…`)
 * and worded like the graph's own issues. A refusal names one code per error only implicitly: an
 * error's code is the refusal's when it has a single error or a single code (`extensions.codes`);
 * otherwise the error gets the general lead with its message as the detail.
 */
export function issuesOfRefusal(
  draft: Draft,
  failure: {
    code?: string;
    detail: string;
    errors?: readonly { pointer: string; message: string }[];
    extensions?: Readonly<Record<string, unknown>>;
  },
  actions: readonly CatalogAction[] = [],
): DraftIssue[] {
  const errors = failure.errors ?? [];
  if (errors.length === 0) return [{ nodes: [], text: { key: 'flows.issue.other', detail: failure.detail } }];
  const codes = Array.isArray(failure.extensions?.codes) ? failure.extensions.codes : [];
  const code =
    codes.length === 1 && typeof codes[0] === 'string'
      ? codes[0]
      : errors.length === 1
        ? failure.code
        : undefined;
  const named = failure.extensions?.nodeIds;
  const nodeIds =
    errors.length === 1 && Array.isArray(named) ? named.filter((id) => typeof id === 'string') : [];
  return errors.map((error) => {
    if (!error.pointer.startsWith('/data/pipeline')) {
      return { nodes: [], text: { key: 'flows.issue.other', detail: `${error.pointer}: ${error.message}` } };
    }
    const pointer = error.pointer.slice('/data/pipeline'.length);
    const nodes = positionsOf(draft, [], pointer);
    const key = keyOf(draft, nodes, pointer);
    return {
      nodes,
      ...(key === undefined ? {} : { key }),
      text: issueTextOf(draft, actions, { code, pointer, nodeIds, message: error.message }),
    };
  });
}
