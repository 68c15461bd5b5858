/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import type { JSX } from 'hono/jsx/jsx-runtime';
import type { MessageKey } from '../i18n.ts';
import { CsrfField, Layout, Message, type PageContext } from '../layout.tsx';
import type { ReferenceChoices } from './references.ts';
import {
  type CatalogCondition,
  formatParam,
  idList,
  LOGICAL_CONTAINERS,
  type NodeError,
  nodeId,
  type TraceMark,
  type TreeNode,
  takesChildren,
} from './rule-form.ts';
import {
  type Choice,
  lineField,
  TEST_CART_LINES,
  type TestCartChoices,
  type TestCartForm,
  type TestCartSummary,
} from './test-cart.ts';

/** A saved rule as the list and the reference choices show it. */
export interface RuleSummary {
  readonly id: string;
  readonly name: string;
  readonly active: boolean;
  readonly revision: number;
  readonly updatedAt: string;
}

export interface Notice {
  readonly kind: 'ok' | 'error' | 'warning';
  readonly text: string;
}

export function RulesListPage({
  page,
  rules,
  canWrite,
  notice,
}: {
  page: PageContext;
  rules: readonly RuleSummary[];
  canWrite: boolean;
  notice?: Notice | undefined;
}) {
  const { t } = page;
  return (
    <Layout page={page} title={t.t('rules.title')}>
      <h1>{t.t('rules.title')}</h1>
      {notice ? <Message kind={notice.kind}>{notice.text}</Message> : null}
      {canWrite ? (
        <p>
          <a href="/admin/rules/new">{t.t('rules.new')}</a>
        </p>
      ) : null}
      {rules.length === 0 ? (
        <p>{t.t('rules.none')}</p>
      ) : (
        <table class="data">
          <thead>
            <tr>
              <th scope="col">{t.t('rules.col.name')}</th>
              <th scope="col">{t.t('rules.col.state')}</th>
              <th scope="col">{t.t('rules.col.revision')}</th>
              <th scope="col">{t.t('rules.col.updated')}</th>
            </tr>
          </thead>
          <tbody>
            {rules.map((rule) => (
              <tr data-rule={rule.id}>
                <td>
                  <a href={`/admin/rules/${rule.id}`}>{rule.name}</a>
                </td>
                <td>
                  <span class={rule.active ? 'badge overridden' : 'badge removed'}>
                    {rule.active ? t.t('rules.active') : t.t('rules.inactive')}
                  </span>
                </td>
                <td>{rule.revision}</td>
                <td>{t.date(rule.updatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Layout>
  );
}

/** Everything the editor page is drawn from. */
export interface EditorState {
  readonly id: string;
  readonly isNew: boolean;
  readonly revision: number;
  readonly name: string;
  readonly active: boolean;
  readonly tree: TreeNode;
  readonly catalog: readonly CatalogCondition[];
  readonly byName: ReadonlyMap<string, CatalogCondition>;
  /** The shop's other saved rules (reference choices and names). */
  readonly savedRules: readonly RuleSummary[];
  /** The shop's choices for the id parameters the tree uses, by reference kind. */
  readonly references: ReferenceChoices;
  readonly canWrite: boolean;
  readonly errors: ReadonlyMap<string | null, readonly NodeError[]>;
  readonly notice?: Notice | undefined;
  /** The test cart composer: its fields, what it offers, the cart built or the refusal. */
  readonly testCart: {
    readonly form: TestCartForm;
    readonly choices: TestCartChoices;
    readonly summary?: TestCartSummary | undefined;
    readonly issue?: { readonly field: string; readonly text: string } | undefined;
  };
  /** A storefront visitor's cart context token, pasted in. */
  readonly token: string;
  readonly preview?: { readonly result: boolean; readonly marks: ReadonlyMap<string, TraceMark> } | undefined;
}

const GROUPS = ['cart', 'item', 'customer', 'order', 'general', 'promotion'] as const;
const GROUP_KEYS: Record<(typeof GROUPS)[number] | 'other', MessageKey> = {
  cart: 'rules.group.cart',
  item: 'rules.group.item',
  customer: 'rules.group.customer',
  order: 'rules.group.order',
  general: 'rules.group.general',
  promotion: 'rules.group.promotion',
  other: 'rules.group.other',
};

function nodeLabel(state: EditorState, page: PageContext, node: TreeNode): string {
  const { t } = page;
  if (node.type === 'ruleReference') {
    const rule = state.savedRules.find((saved) => saved.id === node.ruleId);
    return t.t('rules.reference', { name: rule?.name ?? String(node.ruleId) });
  }
  return state.byName.get(node.type)?.label ?? t.t('rules.unknownType', { type: node.type });
}

const OPERATOR_KEYS: Readonly<Record<string, MessageKey>> = {
  '=': 'rules.op.=',
  '!=': 'rules.op.!=',
  '<': 'rules.op.<',
  '<=': 'rules.op.<=',
  '>': 'rules.op.>',
  '>=': 'rules.op.>=',
  empty: 'rules.op.empty',
  between: 'rules.op.between',
};

/** An operator as symbol and words ("≥ (mindestens)"); one the editor does not know as itself. */
function operatorText(page: PageContext, operator: string): string {
  const key = OPERATOR_KEYS[operator];
  return key ? page.t.t(key) : operator;
}

/**
 * An id parameter as the shop's choices: the ids it holds first, in their order (one the shop
 * does not know shown by its id, never dropped), then the other choices. Posted as checkboxes
 * `m:<pointer>:<param>:<id>` (`applyFields` keeps the held ids' order).
 */
function ReferenceInput({
  page,
  pointer,
  param,
  ids,
  options,
  errors,
}: {
  page: PageContext;
  pointer: string;
  param: CatalogCondition['params'][number];
  ids: readonly string[];
  options: readonly Choice[];
  errors: readonly NodeError[];
}) {
  const { t } = page;
  const id = `${nodeId(pointer)}--${param.name}`;
  const labels = new Map(options.map((option) => [option.id, option.label]));
  const held = [...new Set(ids)];
  const shown = [
    ...held.map((value) => ({ id: value, label: labels.get(value), known: labels.has(value) })),
    ...options.filter((option) => !held.includes(option.id)).map((option) => ({ ...option, known: true })),
  ];
  return (
    <fieldset class="param" data-param={param.name} data-references={param.references}>
      <legend>
        {param.label}
        {param.required === true ? ' *' : ''}
      </legend>
      <input type="hidden" name={`m:${pointer}:${param.name}`} value="1" />
      {shown.length === 0 ? <p class="hint">{t.t('rules.ref.none')}</p> : null}
      {shown.map((choice, index) => (
        <div class="field-row" data-choice={choice.id}>
          <input
            type="checkbox"
            id={`${id}-${index}`}
            name={`m:${pointer}:${param.name}:${choice.id}`}
            checked={held.includes(choice.id)}
          />
          <label for={`${id}-${index}`}>
            {choice.known ? choice.label : t.t('rules.ref.unknown', { id: choice.id })}
          </label>
        </div>
      ))}
      <Errors errors={errors} />
    </fieldset>
  );
}

function TraceBadge({ page, mark }: { page: PageContext; mark: TraceMark | undefined }) {
  const { t } = page;
  if (!mark) return <span class="badge trace-skipped">{t.t('rules.trace.skipped')}</span>;
  return (
    <span class={mark.result ? 'badge trace-true' : 'badge trace-false'} data-trace={String(mark.result)}>
      {mark.result ? t.t('rules.trace.true') : t.t('rules.trace.false')}
    </span>
  );
}

function Errors({ errors, id }: { errors: readonly NodeError[]; id?: string }) {
  if (errors.length === 0) return null;
  return (
    <ul class="node-errors" id={id}>
      {errors.map((error) => (
        <li lang="en">{error.message}</li>
      ))}
    </ul>
  );
}

/** The input of one parameter, typed by the catalog. */
function ParamInput({
  page,
  pointer,
  param,
  operators,
  value,
  errors,
  options,
}: {
  page: PageContext;
  pointer: string;
  param: CatalogCondition['params'][number];
  operators: readonly string[];
  value: unknown;
  errors: readonly NodeError[];
  /** The shop's choices when the parameter names something of the shop and they could be loaded. */
  options: readonly Choice[] | undefined;
}) {
  const { t } = page;
  const ids = options && param.type === 'uuid[]' ? idList(value) : null;
  if (options && ids) {
    return (
      <ReferenceInput
        page={page}
        pointer={pointer}
        param={param}
        ids={ids}
        options={options}
        errors={errors}
      />
    );
  }
  const id = `${nodeId(pointer)}--${param.name}`;
  const name = `v:${pointer}:${param.name}`;
  const errorId = errors.length > 0 ? `${id}-error` : undefined;
  const hintKey: MessageKey | null =
    param.type === 'uuid[]' || param.type === 'string[]'
      ? 'rules.hint.list'
      : param.type === 'object' || param.type === 'json'
        ? 'rules.hint.json'
        : param.type === 'dateOrRange' || param.type === 'datetimeOrRange'
          ? 'rules.hint.range'
          : param.type === 'float' || param.type === 'int'
            ? 'rules.hint.number'
            : null;
  const hintId = hintKey ? `${id}-hint` : undefined;
  const described = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  const choices = param.name === 'operator' ? operators : (param.choices ?? []);
  let control: JSX.Element;
  if (param.type === 'string[]' && choices.length > 0) {
    const chosen = Array.isArray(value) ? value : [];
    return (
      <fieldset class="param" data-param={param.name}>
        <legend>{param.label}</legend>
        <input type="hidden" name={`m:${pointer}:${param.name}`} value="1" />
        {choices.map((choice) => (
          <div class="field-row">
            <input
              type="checkbox"
              id={`${id}-${choice}`}
              name={`m:${pointer}:${param.name}:${choice}`}
              checked={chosen.includes(choice)}
            />
            <label for={`${id}-${choice}`}>{choice}</label>
          </div>
        ))}
        <Errors errors={errors} />
      </fieldset>
    );
  }
  if (choices.length > 0) {
    control = (
      <select id={id} name={name} aria-describedby={described}>
        {param.required === true && value !== undefined ? null : (
          <option value="">{t.t('rules.unset')}</option>
        )}
        {choices.map((choice) => (
          <option value={choice} selected={value === choice}>
            {param.name === 'operator' ? operatorText(page, choice) : choice}
          </option>
        ))}
      </select>
    );
  } else if (param.type === 'bool') {
    control = (
      <select id={id} name={name} aria-describedby={described}>
        <option value="">{t.t('rules.unset')}</option>
        <option value="true" selected={value === true}>
          {t.t('value.yes')}
        </option>
        <option value="false" selected={value === false}>
          {t.t('value.no')}
        </option>
      </select>
    );
  } else if (['uuid[]', 'string[]', 'object', 'json'].includes(param.type)) {
    control = (
      <textarea id={id} name={name} rows={3} spellcheck={false} aria-describedby={described}>
        {formatParam(param.type, value, t.locale)}
      </textarea>
    );
  } else {
    const numeric = param.type === 'float' || param.type === 'int' || param.type === 'weekday';
    control = (
      <input
        id={id}
        name={name}
        type="text"
        inputmode={numeric ? (param.type === 'float' ? 'decimal' : 'numeric') : undefined}
        spellcheck={false}
        value={formatParam(param.type, value, t.locale)}
        aria-describedby={described}
        aria-invalid={errors.length > 0 ? 'true' : undefined}
      />
    );
  }
  return (
    <div class="field param" data-param={param.name}>
      <label for={id}>
        {param.label}
        {param.required === true ? ' *' : ''}
      </label>
      {control}
      {hintKey ? (
        <p class="hint" id={hintId}>
          {t.t(hintKey)}
        </p>
      ) : null}
      <Errors errors={errors} id={errorId} />
    </div>
  );
}

/** The choice of what to add into a container: conditions by group, disabled ones with their reason. */
function AddControl({
  page,
  state,
  pointer,
  label,
}: {
  page: PageContext;
  state: EditorState;
  pointer: string;
  label: string;
}) {
  const { t } = page;
  const id = `${nodeId(pointer)}--new`;
  const containers = state.catalog.filter((condition) => condition.isContainer && condition.enabled);
  const disabled = state.catalog.filter((condition) => !condition.enabled);
  const references = state.savedRules.filter((rule) => rule.id !== state.id);
  return (
    <div class="field-row add-node">
      <label for={id}>{t.t('rules.addTo', { container: label })}</label>
      <select id={id} name={`new:${pointer}`}>
        <optgroup label={t.t('rules.group.containers')}>
          {containers.map((condition) => (
            <option value={condition.name}>{condition.label}</option>
          ))}
        </optgroup>
        {[...GROUPS, 'other' as const].map((group) => {
          const members = state.catalog.filter(
            (condition) =>
              condition.enabled &&
              !condition.isContainer &&
              (group === 'other'
                ? condition.group === null || !(GROUPS as readonly string[]).includes(condition.group)
                : condition.group === group),
          );
          return members.length === 0 ? null : (
            <optgroup label={t.t(GROUP_KEYS[group])}>
              {members.map((condition) => (
                <option value={condition.name}>{condition.label}</option>
              ))}
            </optgroup>
          );
        })}
        {references.length > 0 ? (
          <optgroup label={t.t('rules.group.saved')}>
            {references.map((rule) => (
              <option value={`ruleReference:${rule.id}`} disabled={!rule.active}>
                {rule.active ? rule.name : t.t('rules.referenceInactive', { name: rule.name })}
              </option>
            ))}
          </optgroup>
        ) : null}
        <optgroup label={t.t('rules.group.disabled')}>
          {disabled.map((condition) => (
            <option value={condition.name} disabled data-disabled-reason={condition.disabledReason ?? ''}>
              {t.t('rules.disabledOption', {
                label: condition.label,
                reason: condition.disabledReason ?? '',
              })}
            </option>
          ))}
        </optgroup>
      </select>
      <button type="submit" name="op" value={`add:${pointer}`} class="secondary">
        {t.t('rules.add')}
      </button>
    </div>
  );
}

/** Read-only text of a parameter value (ids by the shop's names where it has them). */
function valueText(
  page: PageContext,
  param: CatalogCondition['params'][number],
  value: unknown,
  options: readonly Choice[] | undefined,
): string {
  if (value === undefined) return page.t.t('rules.unset');
  const ids = options ? idList(value) : null;
  if (options && ids) {
    return ids
      .map((id) => options.find((option) => option.id === id)?.label ?? page.t.t('rules.ref.unknown', { id }))
      .join(', ');
  }
  if (param.name === 'operator' && typeof value === 'string') return operatorText(page, value);
  if (param.type === 'bool' && typeof value === 'boolean') return page.t.t(value ? 'value.yes' : 'value.no');
  if (Array.isArray(value)) return value.map(String).join(', ');
  return formatParam(param.type, value, page.t.locale);
}

function NodeView({
  page,
  state,
  node,
  pointer,
}: {
  page: PageContext;
  state: EditorState;
  node: TreeNode;
  pointer: string;
}): JSX.Element {
  const { t } = page;
  const condition = state.byName.get(node.type);
  const label = nodeLabel(state, page, node);
  const errors = state.errors.get(pointer) ?? [];
  const nodeErrors = errors.filter(
    (error) => error.param === undefined || !condition?.params.some((p) => p.name === error.param),
  );
  const editable = state.canWrite;
  const children = node.children ?? [];
  const isLogical = (LOGICAL_CONTAINERS as readonly string[]).includes(node.type);
  const headingId = `${nodeId(pointer)}--label`;
  return (
    <li
      class={`rule-node${nodeErrors.length + errors.length > 0 ? ' has-error' : ''}`}
      data-pointer={pointer}
      data-type={node.type}
    >
      <div class="node-head">
        <strong id={headingId}>{label}</strong>
        {state.preview ? <TraceBadge page={page} mark={state.preview.marks.get(pointer)} /> : null}
        {editable ? <input type="hidden" name={`t:${pointer}`} value={node.type} /> : null}
        {editable && pointer !== '' ? (
          <button type="submit" name="op" value={`remove:${pointer}`} class="secondary">
            {t.t('rules.remove', { label })}
          </button>
        ) : null}
      </div>
      {condition && !condition.enabled ? (
        <p class="message warning node-disabled">
          {t.t('rules.disabledNode', { reason: condition.disabledReason ?? '' })}
        </p>
      ) : null}
      <Errors errors={nodeErrors} />
      {editable && isLogical ? (
        <div class="field-row">
          <label for={`${nodeId(pointer)}--kind`}>{t.t('rules.containerKind')}</label>
          <select id={`${nodeId(pointer)}--kind`} name={`k:${pointer}`}>
            {LOGICAL_CONTAINERS.map((kind) => (
              <option value={kind} selected={kind === node.type}>
                {state.byName.get(kind)?.label ?? kind}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {condition && node.type !== 'ruleReference'
        ? condition.params
            .filter((param) => param.type !== 'rules')
            .map((param) =>
              editable ? (
                <ParamInput
                  page={page}
                  pointer={pointer}
                  param={param}
                  operators={condition.operators}
                  value={node.value?.[param.name]}
                  errors={errors.filter((error) => error.param === param.name)}
                  options={param.references ? state.references.get(param.references) : undefined}
                />
              ) : (
                <p class="param" data-param={param.name}>
                  {param.label}:{' '}
                  {valueText(
                    page,
                    param,
                    node.value?.[param.name],
                    param.references ? state.references.get(param.references) : undefined,
                  )}
                </p>
              ),
            )
        : null}
      {takesChildren(condition) ? (
        <div class="node-children">
          {children.length === 0 ? <p class="hint">{t.t('rules.noChildren')}</p> : null}
          {children.length > 0 ? (
            <ol class="rule-tree">
              {children.map((child, index) => (
                <NodeView page={page} state={state} node={child} pointer={`${pointer}/children/${index}`} />
              ))}
            </ol>
          ) : null}
          {editable ? <AddControl page={page} state={state} pointer={pointer} label={label} /> : null}
        </div>
      ) : null}
    </li>
  );
}

/** A select of the composer; its refusal, if any, pinned below it. */
function ChoiceField({
  state,
  id,
  name,
  label,
  choices,
  value,
  empty,
}: {
  state: EditorState;
  id: string;
  name: string;
  label: string;
  choices: readonly Choice[];
  value: string;
  empty?: string;
}) {
  const issue = state.testCart.issue?.field === id ? state.testCart.issue.text : null;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select
        id={id}
        name={name}
        aria-describedby={issue ? `${id}-error` : undefined}
        aria-invalid={issue ? 'true' : undefined}
      >
        {empty === undefined ? null : <option value="">{empty}</option>}
        {choices.map((choice) => (
          <option value={choice.id} selected={choice.id === value}>
            {choice.label}
          </option>
        ))}
      </select>
      {issue ? <IssueText id={`${id}-error`} text={issue} /> : null}
    </div>
  );
}

function IssueText({ id, text }: { id: string; text: string }) {
  return (
    <ul class="node-errors" id={id}>
      <li>{text}</li>
    </ul>
  );
}

/**
 * The test cart composer: a sales channel, a few product lines with quantities, and optionally
 * the shipping and payment method; the route builds it through the storefront operations.
 */
function TestCartFields({ page, state }: { page: PageContext; state: EditorState }) {
  const { t } = page;
  const { form, choices, summary, issue } = state.testCart;
  return (
    <fieldset class="test-cart" aria-describedby="tc-intro">
      <legend>{t.t('rules.testCart.heading')}</legend>
      <p class="hint" id="tc-intro">
        {t.t('rules.testCart.intro')}
      </p>
      {/* The test cart's context token: the merchant's own cart, carried from post to post. */}
      <input type="hidden" name="tc:token" value={form.token} />
      <ChoiceField
        state={state}
        id="tc-channel"
        name="tc:channel"
        label={t.t('rules.testCart.channel')}
        choices={choices.channels}
        value={form.channelId}
      />
      <div class="field-row">
        <label for="tc-search">{t.t('rules.testCart.search')}</label>
        <input id="tc-search" name="tc:search" type="search" value={form.search} maxlength={200} />
        <button type="submit" name="op" value="tcSearch" class="secondary">
          {t.t('rules.testCart.searchButton')}
        </button>
      </div>
      {choices.products.length === 0 ? <p class="hint">{t.t('rules.testCart.noProducts')}</p> : null}
      {Array.from({ length: TEST_CART_LINES }, (_, index) => {
        const line = form.lines[index] ?? { productId: '', quantity: '1' };
        const quantityId = lineField(index, 'quantity');
        const quantityIssue = issue?.field === quantityId ? issue.text : null;
        return (
          <div class="field-row test-cart-line" data-line={String(index + 1)}>
            <ChoiceField
              state={state}
              id={lineField(index, 'product')}
              name={`tc:product:${index}`}
              label={t.t('rules.testCart.product', { line: index + 1 })}
              choices={choices.products}
              value={line.productId}
              empty={t.t('rules.testCart.none')}
            />
            <div class="field">
              <label for={quantityId}>{t.t('rules.testCart.quantity', { line: index + 1 })}</label>
              <input
                id={quantityId}
                name={`tc:quantity:${index}`}
                type="text"
                inputmode="numeric"
                size={5}
                value={line.quantity}
                aria-describedby={quantityIssue ? `${quantityId}-error` : undefined}
                aria-invalid={quantityIssue ? 'true' : undefined}
              />
              {quantityIssue ? <IssueText id={`${quantityId}-error`} text={quantityIssue} /> : null}
            </div>
          </div>
        );
      })}
      <ChoiceField
        state={state}
        id="tc-shipping"
        name="tc:shipping"
        label={t.t('rules.testCart.shipping')}
        choices={choices.shippingMethods}
        value={form.shippingMethodId}
        empty={t.t('rules.testCart.notChosen')}
      />
      <ChoiceField
        state={state}
        id="tc-payment"
        name="tc:payment"
        label={t.t('rules.testCart.payment')}
        choices={choices.paymentMethods}
        value={form.paymentMethodId}
        empty={t.t('rules.testCart.notChosen')}
      />
      <button type="submit" name="op" value="preview" class="secondary">
        {t.t('rules.testCart.preview')}
      </button>
      {summary ? (
        <p class="test-cart-summary" data-test-cart-lines={String(summary.lineCount)}>
          {t.t('rules.testCart.built', {
            lines: summary.lineCount,
            quantity: summary.quantity,
            total: t.money(summary.total, summary.currency),
          })}
        </p>
      ) : null}
    </fieldset>
  );
}

function PreviewFields({ page, state }: { page: PageContext; state: EditorState }) {
  const { t } = page;
  return (
    <section class="card preview" aria-labelledby="preview-heading">
      <h2 id="preview-heading">{t.t('rules.previewHeading')}</h2>
      <TestCartFields page={page} state={state} />
      {/* The alternative: a real visitor's cart, by the context token the storefront holds. */}
      <details open={state.token !== ''}>
        <summary>{t.t('rules.tokenInstead')}</summary>
        <div class="field">
          <label for="context-token">{t.t('rules.contextToken')}</label>
          <input
            id="context-token"
            name="token"
            type="text"
            autocomplete="off"
            spellcheck={false}
            value={state.token}
            aria-describedby="context-token-hint"
          />
          <p class="hint" id="context-token-hint">
            {t.t('rules.contextHint')}
          </p>
        </div>
        <button type="submit" name="op" value="previewToken" class="secondary">
          {t.t('rules.previewToken')}
        </button>
      </details>
      {state.preview ? (
        <p
          class={state.preview.result ? 'preview-result trace-true' : 'preview-result trace-false'}
          data-result={String(state.preview.result)}
          role="status"
        >
          {t.t('rules.result', { result: String(state.preview.result) })}
        </p>
      ) : null}
    </section>
  );
}

export function RuleEditorPage({ page, state }: { page: PageContext; state: EditorState }) {
  const { t } = page;
  const title = state.isNew
    ? t.t('rules.newTitle')
    : t.t('rules.editTitle', { name: state.name || t.t('rules.unnamed') });
  const outside = state.errors.get(null) ?? [];
  const tree = (
    <ol class="rule-tree root">
      <NodeView page={page} state={state} node={state.tree} pointer="" />
    </ol>
  );
  return (
    <Layout page={page} title={title}>
      <h1>{title}</h1>
      {state.notice ? <Message kind={state.notice.kind}>{state.notice.text}</Message> : null}
      <p class="meta">{t.t('rules.revision', { revision: state.revision })}</p>
      {state.canWrite ? (
        <form method="post" action={`/admin/rules/${state.id}`} class="rule-editor">
          <CsrfField token={page.csrf} />
          <input type="hidden" name="revision" value={String(state.revision)} />
          <input type="hidden" name="tree" value={JSON.stringify(state.tree)} />
          <div class="field">
            <label for="rule-name">{t.t('rules.name', { language: t.languageName(t.locale) })}</label>
            <input id="rule-name" name="name" type="text" value={state.name} maxlength={255} />
          </div>
          <div class="field field-row">
            <input type="hidden" name="activeShown" value="1" />
            <input id="rule-active" name="active" type="checkbox" checked={state.active} />
            <label for="rule-active">{t.t('rules.activeLabel')}</label>
          </div>
          {/* The first submit button: Enter in any field applies the entries and saves nothing. */}
          <div class="actions">
            <button type="submit" name="op" value="apply" class="secondary">
              {t.t('rules.apply')}
            </button>{' '}
            <button type="submit" name="op" value="save">
              {t.t('rules.save')}
            </button>
          </div>
          <Errors errors={outside} />
          <h2>{t.t('rules.condition')}</h2>
          {tree}
          <PreviewFields page={page} state={state} />
        </form>
      ) : (
        <>
          <p>{t.t('rules.readOnly')}</p>
          <p>
            <span class={state.active ? 'badge overridden' : 'badge removed'}>
              {state.active ? t.t('rules.active') : t.t('rules.inactive')}
            </span>
          </p>
          <h2>{t.t('rules.condition')}</h2>
          {tree}
          <form method="post" action={`/admin/rules/${state.id}`}>
            <CsrfField token={page.csrf} />
            <PreviewFields page={page} state={state} />
          </form>
        </>
      )}
    </Layout>
  );
}
