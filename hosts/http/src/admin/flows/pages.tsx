/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { FLOW_NODE_KINDS, type FlowNodeKind } from '@cartwright/flow-graph';
import type { Child } from 'hono/jsx';
import type { JSX } from 'hono/jsx/jsx-runtime';
import type { MessageKey } from '../i18n.ts';
import { CsrfField, Layout, Message, type PageContext } from '../layout.tsx';
import {
  type CatalogAction,
  type ConfigField,
  configFieldName,
  configFields,
  DELAY_UNITS,
  type Draft,
  type DraftIssue,
  type DraftNode,
  fieldText,
} from './draft.ts';

export type { CatalogAction } from './draft.ts';

// The flow builder's pages: the list, the editor (the graph drawn as nested lists, one fieldset per
// node, problems pinned to both) and the executions page with its polled fragment.

export interface FlowSummary {
  readonly id: string;
  readonly name: string;
  readonly trigger: string;
  readonly active: boolean;
  readonly revision: number;
  readonly nodes: number;
}

/** An installed app and its actions: what an app action's `reference` inputs offer. */
export interface AppActions {
  readonly appId: string;
  readonly actions: readonly string[];
}

export interface SavedRule {
  readonly id: string;
  readonly name: string;
}

const writes = (page: PageContext) => page.session?.principal.permissions.has('settings.write') === true;

function SubNav({ page }: { page: PageContext }) {
  const { t, path } = page;
  return (
    <nav aria-label={t.t('flows.title')} class="sub-nav">
      <ul>
        <li>
          <a href="/admin/flows" aria-current={path === '/admin/flows' ? 'page' : undefined}>
            {t.t('flows.title')}
          </a>
        </li>
        <li>
          <a
            href="/admin/flows/executions"
            aria-current={path === '/admin/flows/executions' ? 'page' : undefined}
          >
            {t.t('flows.executionsLink')}
          </a>
        </li>
      </ul>
    </nav>
  );
}

export function FlowsPage({ page, flows }: { page: PageContext; flows: readonly FlowSummary[] }) {
  const { t } = page;
  return (
    <Layout page={page} title={t.t('flows.title')}>
      <h1>{t.t('flows.title')}</h1>
      <SubNav page={page} />
      {writes(page) ? (
        <p>
          <a href="/admin/flows/new">{t.t('flows.new')}</a>
        </p>
      ) : null}
      {flows.length === 0 ? <p>{t.t('flows.none')}</p> : null}
      <ul class="cards">
        {flows.map((flow) => (
          <li class="card">
            <h2>
              <a
                href={`/admin/flows/${flow.id}`}
                aria-label={t.t(writes(page) ? 'flows.open' : 'flows.view', { name: flow.name })}
              >
                {flow.name}
              </a>
              <span class="badge">{t.t(flow.active ? 'flows.active' : 'flows.inactive')}</span>
            </h2>
            <p>{t.t('flows.trigger', { trigger: flow.trigger })}</p>
            <p class="meta">
              {t.t('flows.nodes', { count: flow.nodes })} ·{' '}
              {t.t('flows.revision', { revision: flow.revision })}
            </p>
          </li>
        ))}
      </ul>
    </Layout>
  );
}

/**
 * A problem in the UI language: its message with its facts (node ids listed as the language lists
 * them); where the message cannot say everything, the check's English text follows as a marked
 * technical detail (`lang="en"`, so a screen reader pronounces it as English).
 */
export function issueText(page: PageContext, issue: DraftIssue): Child {
  const { t } = page;
  const { key, values, ids, detail } = issue.text;
  const list = ids ? new Intl.ListFormat(t.locale, { type: 'conjunction' }).format(ids) : undefined;
  const lead = t.t(key, list === undefined ? values : { ...values, ids: list });
  if (detail === undefined) return lead;
  return (
    <>
      {lead}{' '}
      <span class="issue-detail">
        {t.t('flows.issueDetail')} <code lang="en">{detail}</code>
      </span>
    </>
  );
}

/** Texts one after another, separated by a middle dot. */
const joined = (texts: readonly Child[]): Child[] =>
  texts.flatMap((text, at) => (at === 0 ? [text] : [' · ', text]));

const KIND_KEY: Readonly<Record<FlowNodeKind, MessageKey>> = {
  condition: 'flows.kind.condition',
  action: 'flows.kind.action',
  delay: 'flows.kind.delay',
  stop: 'flows.kind.stop',
};

interface EditorProps {
  readonly page: PageContext;
  readonly flowId: string;
  readonly draft: Draft;
  readonly issues: readonly DraftIssue[] | null;
  readonly notice?: { kind: 'ok' | 'error' | 'warning'; text: string } | undefined;
  readonly actions: readonly CatalogAction[];
  readonly apps: readonly AppActions[];
  readonly rules: readonly SavedRule[];
  readonly triggers: readonly string[];
  readonly isNew: boolean;
}

/** One line of the drawn graph: what a node does, in words. */
function summary(props: EditorProps, node: DraftNode): string {
  const { t } = props.page;
  switch (node.kind) {
    case 'condition':
      if (node.conditionMode === 'rule') {
        const rule = props.rules.find((candidate) => candidate.id === node.ruleId);
        return t.t('flows.usesRule', { name: rule?.name ?? node.ruleId });
      }
      try {
        const tree = JSON.parse(node.tree) as { type?: unknown };
        return t.t('flows.usesTree', { type: typeof tree.type === 'string' ? tree.type : '?' });
      } catch {
        return t.t('flows.usesTree', { type: '?' });
      }
    case 'action':
      return props.actions.find((action) => action.name === node.action)?.label ?? node.action;
    case 'delay':
      return /^\d{1,9}$/.test(node.amount)
        ? t.t('flows.waits', { amount: Number(node.amount), unit: node.unit })
        : node.amount;
    default:
      return '';
  }
}

/** A short JSON text on one line (null when it is long or unreadable). */
function compactJson(text: string): string | null {
  try {
    const compact = JSON.stringify(JSON.parse(text));
    return compact.length <= 300 ? compact : null;
  } catch {
    return null;
  }
}

/** The graph from the entry as nested lists: each node once, a second use links to the first. */
function Graph(props: EditorProps & { pinned: ReadonlyMap<number, Child[]> }) {
  const { t } = props.page;
  const { nodes } = props.draft;
  const indexOf = new Map<string, number>();
  nodes.forEach((node, index) => {
    if (!indexOf.has(node.id)) indexOf.set(node.id, index);
  });
  const drawn = new Set<number>();
  const editable = writes(props.page);

  const Step = ({ index }: { index: number }) => {
    const node = nodes[index]!;
    const problems = props.pinned.get(index) ?? [];
    const label = (
      <>
        <span class={`flow-kind ${node.kind}`}>{t.t(KIND_KEY[node.kind])}</span> <code>{node.id}</code>
      </>
    );
    // The node's fieldset exists only in the editable form; a reader gets the details here.
    const details = editable
      ? null
      : node.kind === 'condition' && node.conditionMode === 'tree'
        ? compactJson(node.tree)
        : node.kind === 'action'
          ? compactJson(node.config)
          : null;
    return (
      <span class={problems.length > 0 ? 'flow-node has-issues' : 'flow-node'} id={`g-node-${index}`}>
        {editable ? <a href={`#node-${index}`}>{label}</a> : label} {summary(props, node)}
        {details ? (
          <>
            {' '}
            <code>{details}</code>
          </>
        ) : null}
        {problems.length > 0 ? (
          <ul class="flow-issues">
            {problems.map((text) => (
              <li>{text}</li>
            ))}
          </ul>
        ) : null}
      </span>
    );
  };

  const chain = (target: string | null, depth: number): Child[] => {
    if (target === null || target === '') return [<li class="flow-end">{t.t('flows.end')}</li>];
    const index = indexOf.get(target);
    if (index === undefined) {
      return [
        <li class="flow-missing">
          <strong>{t.t('flows.missing', { id: target })}</strong>
        </li>,
      ];
    }
    if (drawn.has(index) || depth > nodes.length) {
      return [
        <li class="flow-goto">
          <a href={`#g-node-${index}`}>{t.t('flows.goTo', { id: target })}</a>
        </li>,
      ];
    }
    drawn.add(index);
    const node = nodes[index]!;
    if (node.kind === 'condition') {
      return [
        <li>
          <Step index={index} />
          <ul class="flow-branches">
            <li>
              <span class="flow-edge">{t.t('flows.branchTrue')}</span>
              <ol class="flow-chain">{chain(node.onTrue, depth + 1)}</ol>
            </li>
            <li>
              <span class="flow-edge">{t.t('flows.branchFalse')}</span>
              <ol class="flow-chain">{chain(node.onFalse, depth + 1)}</ol>
            </li>
          </ul>
        </li>,
      ];
    }
    if (node.kind === 'stop')
      return [
        <li>
          <Step index={index} />
        </li>,
      ];
    return [
      <li>
        <Step index={index} />
      </li>,
      ...chain(node.next, depth + 1),
    ];
  };

  const main = chain(props.draft.entry, 0);
  const unreachable = nodes.flatMap((_, index) => (drawn.has(index) ? [] : [index]));
  return (
    <section aria-labelledby="flow-graph" class="flow-graph">
      <h2 id="flow-graph">{t.t('flows.graph')}</h2>
      <p class="hint">{t.t('flows.graphHint')}</p>
      <ol class="flow-chain">{main}</ol>
      {unreachable.length > 0 ? (
        <>
          <h3>{t.t('flows.unreachable')}</h3>
          <ul class="flow-chain">
            {unreachable.map((index) => (
              <li>
                <Step index={index} />
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

function Edge({
  page,
  index,
  name,
  label,
  value,
  editable,
}: {
  page: PageContext;
  index: number;
  name: string;
  label: MessageKey;
  value: string;
  editable: boolean;
}) {
  const id = `n-${index}-${name}`;
  return (
    <div class="field">
      <label for={id}>{page.t.t(label)}</label>
      <input
        id={id}
        name={id}
        type="text"
        value={value}
        list="node-ids"
        readonly={!editable}
        aria-describedby={`${id}-hint`}
      />
      <p class="hint" id={`${id}-hint`}>
        {page.t.t('flows.edgeHint')}
      </p>
    </div>
  );
}

type NodeProps = EditorProps & {
  node: DraftNode;
  index: number;
  problems: readonly Child[];
  keyProblems: ReadonlyMap<string, readonly Child[]>;
  /** Whether some problem of the node is not pinned to one of its config inputs. */
  nodeLevel: boolean;
};

const HINT: Readonly<Record<string, MessageKey>> = {
  list: 'flows.hint.list',
  json: 'flows.hint.json',
  integer: 'flows.hint.integer',
};

/** One config key's input, typed by the catalog; its problems pinned to it. */
function ConfigInput({
  page,
  index,
  at,
  field,
  problems,
  options,
}: {
  page: PageContext;
  index: number;
  at: number;
  field: ConfigField;
  problems: readonly Child[];
  options: readonly string[];
}) {
  const { t } = page;
  const id = `n-${index}-c${at}`;
  const name = configFieldName(index, field.key);
  const hintKey: MessageKey | undefined = field.spec === null ? 'flows.unknownKey' : HINT[field.mode];
  const hintId = hintKey ? `${id}-hint` : undefined;
  const errorId = problems.length > 0 ? `${id}-error` : undefined;
  const described = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  const invalid = problems.length > 0 ? 'true' : undefined;
  const text = fieldText(field, t.locale);
  let control: JSX.Element;
  if (field.mode === 'choice' || field.mode === 'boolean') {
    const choices: readonly (readonly [string, string])[] =
      field.mode === 'boolean'
        ? [
            ['true', t.t('value.yes')],
            ['false', t.t('value.no')],
          ]
        : [...new Set([...(field.spec?.choices ?? []), ...(text === '' ? [] : [text])])].map(
            (choice) => [choice, choice] as const,
          );
    control = (
      <select id={id} name={name} aria-describedby={described} aria-invalid={invalid}>
        <option value="">{t.t('flows.unset')}</option>
        {choices.map(([value, label]) => (
          <option value={value} selected={value === text}>
            {label}
          </option>
        ))}
      </select>
    );
  } else if (field.mode === 'text' || field.mode === 'list' || field.mode === 'json') {
    control = (
      <textarea
        id={id}
        name={name}
        rows={field.mode === 'json' ? 4 : 3}
        spellcheck={field.mode === 'text'}
        aria-describedby={described}
        aria-invalid={invalid}
      >
        {text}
      </textarea>
    );
  } else {
    control = (
      <input
        id={id}
        name={name}
        type="text"
        value={text}
        inputmode={field.mode === 'integer' ? 'numeric' : undefined}
        list={options.length > 0 ? `${id}-options` : undefined}
        spellcheck={false}
        aria-describedby={described}
        aria-invalid={invalid}
      />
    );
  }
  return (
    <div class="field param" data-key={field.key}>
      <label for={id}>
        {field.spec?.label ?? <code>{field.key}</code>}
        {field.spec?.required ? ` (${t.t('flows.required')})` : ''}
      </label>
      {control}
      {options.length > 0 ? (
        <datalist id={`${id}-options`}>
          {options.map((option) => (
            <option value={option} />
          ))}
        </datalist>
      ) : null}
      {hintKey ? (
        <p class="hint" id={hintId}>
          {t.t(hintKey)}
        </p>
      ) : null}
      {errorId ? (
        <ul class="node-errors" id={errorId}>
          {problems.map((problem) => (
            <li>{problem}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * An action's config: one typed input per catalog key (the config itself travels in a hidden field
 * and the inputs are written over it when the form is read), or the whole config as JSON when the
 * action is not in the catalog or the carried config is no object.
 */
function ActionConfig({ page, node, index, actions, apps, keyProblems }: NodeProps) {
  const { t } = page;
  const name = (field: string) => `n-${index}-${field}`;
  const action = actions.find((candidate) => candidate.name === node.action);
  let config: unknown;
  try {
    config = JSON.parse(node.config);
  } catch {
    config = null;
  }
  if (!action || config === null || typeof config !== 'object' || Array.isArray(config)) {
    return (
      <div class="field">
        <label for={name('config')}>{t.t('flows.config')}</label>
        <textarea id={name('config')} name={name('config')} rows={4} spellcheck={false}>
          {node.config}
        </textarea>
      </div>
    );
  }
  const record = config as Record<string, unknown>;
  const fields = configFields(action, record);
  const optionsOf = (field: ConfigField): readonly string[] => {
    if (field.mode !== 'reference') return [];
    if (field.spec?.references === 'app') return apps.map((app) => app.appId);
    if (field.spec?.references === 'appAction') {
      const app = apps.find((candidate) => candidate.appId === record.appId);
      return app ? app.actions : [...new Set(apps.flatMap((candidate) => candidate.actions))];
    }
    return [];
  };
  return (
    <>
      <input type="hidden" name={name('config')} value={node.config} />
      {fields.length === 0 ? (
        <p class="hint">{t.t('flows.configNone')}</p>
      ) : (
        <fieldset class="flow-config">
          <legend>{t.t('flows.configHeading', { action: action.label })}</legend>
          {fields.map((field, at) => (
            <ConfigInput
              page={page}
              index={index}
              at={at}
              field={field}
              problems={keyProblems.get(field.key) ?? []}
              options={optionsOf(field)}
            />
          ))}
        </fieldset>
      )}
    </>
  );
}

function NodeFields(props: NodeProps) {
  const { page, node, index, problems, actions, rules } = props;
  const { t } = page;
  const editable = writes(page);
  const name = (field: string) => `n-${index}-${field}`;
  const action = actions.find((candidate) => candidate.name === node.action);
  return (
    <fieldset id={`node-${index}`} class={problems.length > 0 ? 'flow-fieldset has-issues' : 'flow-fieldset'}>
      <legend>
        {t.t(KIND_KEY[node.kind])} · {node.id}
      </legend>
      <input type="hidden" name={name('kind')} value={node.kind} />
      {problems.length > 0 ? (
        <div class="message error" id={`node-${index}-issues`}>
          <p>{t.t('flows.issuesOf', { id: node.id })}</p>
          <ul>
            {problems.map((text) => (
              <li>{text}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <div class="field">
        <label for={name('id')}>{t.t('flows.nodeId')}</label>
        <input
          id={name('id')}
          name={name('id')}
          type="text"
          value={node.id}
          required
          readonly={!editable}
          aria-invalid={props.nodeLevel ? 'true' : undefined}
          aria-describedby={problems.length > 0 ? `node-${index}-issues` : undefined}
        />
      </div>
      {node.kind === 'condition' ? (
        <>
          <fieldset>
            <legend>{t.t('flows.conditionMode')}</legend>
            <div class="field-row">
              <input
                type="radio"
                id={name('mode-rule')}
                name={name('mode')}
                value="rule"
                checked={node.conditionMode === 'rule'}
                disabled={!editable}
              />
              <label for={name('mode-rule')}>{t.t('flows.conditionRule')}</label>
            </div>
            <div class="field-row">
              <input
                type="radio"
                id={name('mode-tree')}
                name={name('mode')}
                value="tree"
                checked={node.conditionMode === 'tree'}
                disabled={!editable}
              />
              <label for={name('mode-tree')}>{t.t('flows.conditionTree')}</label>
            </div>
          </fieldset>
          <div class="field">
            <label for={name('rule')}>{t.t('flows.rule')}</label>
            <select id={name('rule')} name={name('rule')} disabled={!editable}>
              <option value="">{t.t('flows.noRule')}</option>
              {rules.map((rule) => (
                <option value={rule.id} selected={rule.id === node.ruleId}>
                  {rule.name}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for={name('tree')}>{t.t('flows.tree')}</label>
            <textarea id={name('tree')} name={name('tree')} rows={4} readonly={!editable} spellcheck={false}>
              {node.tree}
            </textarea>
          </div>
          <Edge
            page={page}
            index={index}
            name="true"
            label="flows.onTrue"
            value={node.onTrue}
            editable={editable}
          />
          <Edge
            page={page}
            index={index}
            name="false"
            label="flows.onFalse"
            value={node.onFalse}
            editable={editable}
          />
        </>
      ) : null}
      {node.kind === 'action' ? (
        <>
          <div class="field">
            <label for={name('action')}>{t.t('flows.action')}</label>
            <select
              id={name('action')}
              name={name('action')}
              disabled={!editable}
              aria-describedby={`${name('action')}-hint`}
            >
              {action ? null : <option value={node.action}>{node.action}</option>}
              {actions.map((candidate) => (
                <option value={candidate.name} selected={candidate.name === node.action}>
                  {candidate.label}
                </option>
              ))}
            </select>
            <p class="hint" id={`${name('action')}-hint`}>
              {t.t('flows.actionHint')}
            </p>
          </div>
          <input type="hidden" name={name('for')} value={node.action} />
          <ActionConfig {...props} />
          <Edge
            page={page}
            index={index}
            name="next"
            label="flows.next"
            value={node.next}
            editable={editable}
          />
        </>
      ) : null}
      {node.kind === 'delay' ? (
        <>
          <div class="field-row">
            <div class="field">
              <label for={name('amount')}>{t.t('flows.delayAmount')}</label>
              <input
                id={name('amount')}
                name={name('amount')}
                type="number"
                min="1"
                step="1"
                value={node.amount}
                readonly={!editable}
                aria-describedby={`${name('amount')}-hint`}
              />
            </div>
            <div class="field">
              <label for={name('unit')}>{t.t('flows.delayUnit')}</label>
              <select id={name('unit')} name={name('unit')} disabled={!editable}>
                {DELAY_UNITS.map((unit) => (
                  <option value={unit} selected={unit === node.unit}>
                    {t.t(`flows.unit.${unit}`)}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <p class="hint" id={`${name('amount')}-hint`}>
            {t.t('flows.delayHint')}
          </p>
          <Edge
            page={page}
            index={index}
            name="next"
            label="flows.next"
            value={node.next}
            editable={editable}
          />
        </>
      ) : null}
      {editable ? (
        <button type="submit" name="op" value={`remove:${index}`} class="secondary">
          {t.t('flows.remove', { id: node.id })}
        </button>
      ) : null}
    </fieldset>
  );
}

export function FlowEditorPage(props: EditorProps) {
  const { page, draft, issues, flowId, triggers, isNew, notice } = props;
  const { t } = page;
  const editable = writes(page);
  const pinned = new Map<number, Child[]>();
  const pinnedKeys = new Map<number, Map<string, Child[]>>();
  const nodeLevel = new Set<number>();
  const whole: Child[] = [];
  for (const issue of issues ?? []) {
    const text = issueText(page, issue);
    if (issue.nodes.length === 0) whole.push(text);
    for (const index of issue.nodes) pinned.set(index, [...(pinned.get(index) ?? []), text]);
    const [only] = issue.nodes;
    if (issue.key !== undefined && only !== undefined) {
      const keys = pinnedKeys.get(only) ?? new Map<string, Child[]>();
      keys.set(issue.key, [...(keys.get(issue.key) ?? []), text]);
      pinnedKeys.set(only, keys);
    } else {
      for (const index of issue.nodes) nodeLevel.add(index);
    }
  }
  const title = isNew
    ? t.t('flows.newTitle')
    : t.t('flows.editTitle', { name: draft.name || t.t('flows.untitled') });
  return (
    <Layout page={page} title={title}>
      <h1>{title}</h1>
      <SubNav page={page} />
      {notice ? <Message kind={notice.kind}>{notice.text}</Message> : null}
      {issues !== null && issues.length > 0 ? (
        <Message kind="error">
          <p>{t.t('flows.issues', { count: whole.length + pinned.size })}</p>
          <ul>
            {whole.map((text) => (
              <li>
                {t.t('flows.graphIssue')}: {text}
              </li>
            ))}
            {[...pinned].map(([index, texts]) => (
              <li>
                <a href={`#node-${index}`}>{t.t('flows.node', { id: draft.nodes[index]?.id ?? '' })}</a>:{' '}
                {joined(texts)}
              </li>
            ))}
          </ul>
        </Message>
      ) : issues !== null && !notice ? (
        <Message kind="ok">{t.t('flows.valid')}</Message>
      ) : null}
      {editable ? null : <p>{t.t('flows.readOnly')}</p>}
      <Graph {...props} pinned={pinned} />
      {editable ? (
        <form method="post" action={`/admin/flows/${flowId}`} class="flow-editor">
          <CsrfField token={page.csrf} />
          <input type="hidden" name="revision" value={String(draft.revision)} />
          <input type="hidden" name="count" value={String(draft.nodes.length)} />
          <datalist id="node-ids">
            {draft.nodes.map((node) => (
              <option value={node.id} />
            ))}
          </datalist>
          <datalist id="flow-triggers">
            {triggers.map((trigger) => (
              <option value={trigger} />
            ))}
          </datalist>
          <div class="field">
            <label for="flow-name">{t.t('flows.name', { language: t.languageName(t.locale) })}</label>
            <input id="flow-name" name="name" type="text" value={draft.name} required readonly={!editable} />
          </div>
          <div class="field">
            <label for="flow-trigger">{t.t('flows.triggerLabel')}</label>
            <input
              id="flow-trigger"
              name="trigger"
              type="text"
              value={draft.trigger}
              list="flow-triggers"
              required
              readonly={!editable}
            />
          </div>
          <div class="field field-row">
            <input
              id="flow-active"
              name="active"
              type="checkbox"
              checked={draft.active}
              disabled={!editable}
            />
            <label for="flow-active">{t.t('flows.activeLabel')}</label>
          </div>
          <div class="field">
            <label for="flow-entry">{t.t('flows.entry')}</label>
            <input
              id="flow-entry"
              name="entry"
              type="text"
              value={draft.entry}
              list="node-ids"
              required
              readonly={!editable}
            />
          </div>
          <h2>{t.t('flows.nodesHeading')}</h2>
          {draft.nodes.map((node, index) => (
            <NodeFields
              {...props}
              node={node}
              index={index}
              problems={pinned.get(index) ?? []}
              keyProblems={pinnedKeys.get(index) ?? new Map()}
              nodeLevel={nodeLevel.has(index)}
            />
          ))}
          {editable ? (
            <div class="field-row flow-actions">
              <label for="flow-add-kind">{t.t('flows.addKind')}</label>
              <select id="flow-add-kind" name="addKind">
                {FLOW_NODE_KINDS.map((kind) => (
                  <option value={kind}>{t.t(KIND_KEY[kind])}</option>
                ))}
              </select>
              <button type="submit" name="op" value="add" class="secondary">
                {t.t('flows.add')}
              </button>
              <button type="submit" name="op" value="check" class="secondary">
                {t.t('flows.check')}
              </button>
              <button type="submit" name="op" value="save">
                {t.t('flows.save')}
              </button>
            </div>
          ) : null}
        </form>
      ) : null}
    </Layout>
  );
}

export interface ExecutionItem {
  readonly id: string;
  readonly flowId: string;
  readonly event: { name: string };
  readonly subject: Record<string, unknown>;
  readonly status: string;
  readonly currentNode: string | null;
  readonly availableAt: string;
  readonly trace: readonly unknown[];
  readonly error: unknown;
  readonly createdAt: string;
}

export interface ExecutionsView {
  readonly items: readonly ExecutionItem[];
  readonly unresolved: { uncertain: number; failed: number };
}

const STATUS_KEY: Readonly<Record<string, MessageKey>> = {
  queued: 'executions.status.queued',
  running: 'executions.status.running',
  waiting: 'executions.status.waiting',
  uncertain: 'executions.status.uncertain',
  failed: 'executions.status.failed',
  finished: 'executions.status.finished',
  cancelled: 'executions.status.cancelled',
};

function traceLine(entry: unknown): { node: string; outcome: string } {
  const record = entry !== null && typeof entry === 'object' ? (entry as Record<string, unknown>) : {};
  const node = typeof record.node === 'string' ? record.node : '?';
  const outcome = [record.kind, record.outcome]
    .filter((part) => typeof part === 'string' && part !== '')
    .join(' · ');
  const next = typeof record.next === 'string' ? ` → ${record.next}` : '';
  return { node, outcome: `${outcome}${next}` };
}

function errorText(error: unknown): string {
  if (error === null || error === undefined) return '';
  if (typeof error === 'object' && 'message' in error && typeof error.message === 'string')
    return error.message;
  return JSON.stringify(error);
}

/**
 * The long-polled part of the executions page: as soon as it is in the page (`hx-trigger="load"`)
 * htmx asks for it again with the fingerprint of what it shows (`?seen=`); the server answers when
 * the list differs or after 3 s, and the answer, swapped in, asks again. After a failed request it
 * asks again 3 s later. `hx-select` takes only the list from the answer (an expired session's
 * sign-in page swaps in nothing rather than a page inside the page); `hx-disinherit="*"` keeps the
 * polling's swap and select off the resolve forms inside it (their boosted posts swap the whole
 * page as every other form does).
 */
export function ExecutionsFragment({
  page,
  view,
  flowNames,
  fingerprint,
}: {
  page: PageContext;
  view: ExecutionsView;
  flowNames: ReadonlyMap<string, string>;
  fingerprint: string;
}) {
  const { t } = page;
  const editable = writes(page);
  return (
    <div
      id="executions"
      hx-get={`/admin/flows/executions/live?seen=${fingerprint}`}
      hx-trigger="load, htmx:sendError delay:3s, htmx:responseError delay:3s"
      data-fingerprint={fingerprint}
      hx-swap="outerHTML"
      hx-select="#executions"
      hx-disinherit="*"
    >
      <p role="status">
        {t.t('executions.unresolved', {
          uncertain: view.unresolved.uncertain,
          failed: view.unresolved.failed,
        })}
      </p>
      {view.items.length === 0 ? <p>{t.t('executions.none')}</p> : null}
      <ol class="executions">
        {view.items.map((job) => {
          const flow = flowNames.get(job.flowId) ?? t.t('executions.unknownFlow');
          const orderId = typeof job.subject.orderId === 'string' ? job.subject.orderId : null;
          const resolvable = editable && (job.status === 'uncertain' || job.status === 'failed');
          return (
            <li class="card execution" id={`job-${job.id}`} data-status={job.status}>
              <h2 id={`job-${job.id}-title`}>
                {t.t('executions.job', { flow, event: job.event.name })}{' '}
                <span class={`badge status-${job.status}`}>
                  {t.t(STATUS_KEY[job.status] ?? 'executions.status')}
                </span>
              </h2>
              <p class="meta">
                {t.t('executions.created', { date: t.date(job.createdAt) })}
                {orderId ? <> · {t.t('executions.order', { id: orderId })}</> : null}
                {job.currentNode ? <> · {t.t('executions.currentNode', { id: job.currentNode })}</> : null}
                {job.status === 'waiting' ? (
                  <> · {t.t('executions.availableAt', { date: t.date(job.availableAt) })}</>
                ) : null}
              </p>
              {job.error ? (
                <p class="flow-error">{t.t('executions.error', { detail: errorText(job.error) })}</p>
              ) : null}
              <h3 id={`trace-${job.id}`}>{t.t('executions.trace')}</h3>
              <ol class="trace" aria-labelledby={`trace-${job.id}`}>
                {job.trace.map((entry) => (
                  <li>{t.t('executions.step', traceLine(entry))}</li>
                ))}
              </ol>
              {resolvable ? (
                <form
                  method="post"
                  action={`/admin/flows/executions/${job.id}/resolve`}
                  class="field-row"
                  aria-labelledby={`job-${job.id}-title`}
                >
                  <CsrfField token={page.csrf} />
                  <span>{t.t('executions.resolve')}:</span>
                  <button type="submit" name="resolution" value="retry" class="secondary">
                    {t.t('executions.retry')}
                  </button>
                  <button type="submit" name="resolution" value="done" class="secondary">
                    {t.t('executions.done')}
                  </button>
                  <button type="submit" name="resolution" value="abandon" class="secondary">
                    {t.t('executions.abandon')}
                  </button>
                </form>
              ) : null}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

export function ExecutionsPage({
  page,
  view,
  flowNames,
  fingerprint,
  notice,
}: {
  page: PageContext;
  view: ExecutionsView;
  flowNames: ReadonlyMap<string, string>;
  fingerprint: string;
  notice?: { kind: 'ok' | 'error'; text: string } | undefined;
}) {
  const { t } = page;
  return (
    <Layout page={page} title={t.t('executions.title')}>
      <h1>{t.t('executions.title')}</h1>
      <SubNav page={page} />
      {notice ? <Message kind={notice.kind}>{notice.text}</Message> : null}
      <p class="hint">{t.t('executions.hint', { count: EXECUTIONS_SHOWN })}</p>
      <ExecutionsFragment page={page} view={view} flowNames={flowNames} fingerprint={fingerprint} />
    </Layout>
  );
}

/** How many of the newest jobs the executions page shows (one bounded page of `automation.executions`). */
export const EXECUTIONS_SHOWN = 30;
