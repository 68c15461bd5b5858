import { NATIVE_CUSTOMER_GROUPS, operations } from '@cartwright/service';
import { describe, expect, it } from 'vitest';
import { translator } from '../src/admin/i18n.ts';
import { type EditorState, RuleEditorPage } from '../src/admin/rules/pages.tsx';
import {
  applyAction,
  applyFields,
  type CatalogCondition,
  errorsByNode,
  nodeAt,
  parseNumber,
  parseTree,
  referencedKinds,
  type TreeNode,
  traceByPointer,
} from '../src/admin/rules/rule-form.ts';
import { EMPTY_TEST_CART } from '../src/admin/rules/test-cart.ts';
import { formFields } from './admin-session.ts';

// The rule editor's form state (admin/rules/rule-form.ts): the tree read from a form within
// bounds, fields written only into the node they were rendered for, add and remove by pointer,
// the API's error pointers pinned to nodes, a preview trace by pointer.

// The catalog as `automation.catalog` answers it (its handler reads nothing but its input).
const catalogOperation = operations.find((operation) => operation.name === 'automation.catalog')!;
const answered = (await catalogOperation.handler({} as never, { language: 'de' } as never)) as {
  ok: true;
  value: { conditions: CatalogCondition[] };
};
const catalog = new Map(answered.value.conditions.map((condition) => [condition.name, condition]));

describe('the rule form', () => {
  it('reads only bounded trees of node objects', () => {
    expect(parseTree('{"type":"andContainer","children":[]}')).toEqual({
      type: 'andContainer',
      children: [],
    });
    expect(parseTree('not json')).toBeNull();
    expect(parseTree('[]')).toBeNull();
    expect(parseTree('{"type":"x","children":{}}')).toBeNull();
    expect(parseTree('{"type":"x","value":[1]}')).toBeNull();
    let deep = '{"type":"alwaysValid"}';
    for (let level = 0; level < 40; level += 1) deep = `{"type":"notContainer","children":[${deep}]}`;
    expect(parseTree(deep)).toBeNull();
    const wide = JSON.stringify({
      type: 'orContainer',
      children: Array.from({ length: 1000 }, () => ({ type: 'alwaysValid' })),
    });
    expect(parseTree(wide)).toBeNull();
    // Far deeper than any stack: refused without recursion.
    expect(parseTree(`${'{"type":"n","children":['.repeat(5000)}${']}'.repeat(5000)}`)).toBeNull();
  });

  it('parses numbers as the UI language writes them', () => {
    expect(parseNumber('20,5', 'de')).toBe(20.5);
    expect(parseNumber('20.5', 'en')).toBe(20.5);
    expect(parseNumber('20.5', 'de')).toBeNull();
    expect(parseNumber('1,000', 'en')).toBeNull();
    expect(parseNumber('abc', 'en')).toBeNull();
  });

  it('adds and removes by pointer, writes typed fields only into the node they were rendered for', () => {
    const tree = parseTree('{"type":"andContainer","children":[]}')!;
    expect(applyAction(tree, 'add:', { 'new:': 'orContainer' }, catalog)).toBe(true);
    expect(applyAction(tree, 'add:/children/0', { 'new:/children/0': 'cartCartAmount' }, catalog)).toBe(true);
    // Disabled conditions and leaves that take no children are refused.
    expect(applyAction(tree, 'add:/children/0', { 'new:/children/0': 'scriptRule' }, catalog)).toBe(false);
    expect(
      applyAction(
        tree,
        'add:/children/0/children/0',
        { 'new:/children/0/children/0': 'alwaysValid' },
        catalog,
      ),
    ).toBe(false);
    const ref = '0190f0c8-0000-7000-8000-0000000000a6';
    expect(applyAction(tree, 'add:/children/0', { 'new:/children/0': `ruleReference:${ref}` }, catalog)).toBe(
      true,
    );
    applyFields(
      tree,
      {
        't:/children/0': 'orContainer',
        'k:/children/0': 'xorContainer',
        't:/children/0/children/0': 'cartCartAmount',
        'v:/children/0/children/0:amount': '12,5',
        'v:/children/0/children/0:operator': '>=',
        // Rendered for another type: ignored.
        't:/children/0/children/1': 'cartCartAmount',
        'v:/children/0/children/1:amount': '1',
      },
      catalog,
      'de',
    );
    expect(tree).toEqual({
      type: 'andContainer',
      children: [
        {
          type: 'xorContainer',
          children: [
            { type: 'cartCartAmount', value: { operator: '>=', amount: 12.5 } },
            { type: 'ruleReference', ruleId: ref },
          ],
        },
      ],
    });
    expect(applyAction(tree, 'remove:/children/0/children/0', {}, catalog)).toBe(true);
    expect(nodeAt(tree, '/children/0/children/0')).toEqual({ type: 'ruleReference', ruleId: ref });
    expect(applyAction(tree, 'remove:', {}, catalog)).toBe(false);
    expect(applyAction(tree, 'remove:/children/7', {}, catalog)).toBe(false);
  });

  it('pins error pointers to the deepest node and its parameter', () => {
    const tree = parseTree(
      '{"type":"andContainer","children":[{"type":"orContainer","children":[{"type":"cartCartAmount","value":{}}]}]}',
    )!;
    const pinned = errorsByNode(
      tree,
      [
        { pointer: '/data/condition/children/0/children/0/value/amount', message: 'expected a number' },
        { pointer: '/data/condition/children/0/children/5', message: 'no such node' },
        { pointer: '/data/name', message: 'give the rule a name' },
      ],
      '/data/condition',
    );
    expect(pinned.get('/children/0/children/0')).toEqual([{ param: 'amount', message: 'expected a number' }]);
    expect(pinned.get('/children/0')).toEqual([{ message: 'no such node' }]);
    expect(pinned.get(null)).toEqual([{ message: 'give the rule a name' }]);
  });

  it('reads a trace by pointer without descending into referenced rules', () => {
    const marks = traceByPointer({
      pointer: '',
      type: 'orContainer',
      result: true,
      children: [
        { pointer: '/children/0', type: 'cartCartAmount', result: true, actual: 30 },
        {
          pointer: '/children/1',
          type: 'ruleReference',
          result: false,
          children: [{ pointer: '', type: 'alwaysValid', result: true }],
        },
      ],
    });
    expect(marks.get('')).toEqual({ result: true });
    expect(marks.get('/children/0')).toEqual({ result: true });
    expect(marks.get('/children/1')).toEqual({ result: false });
  });
});

// The editor page drawn for a tree (no request, no shop: the choices are given), and the form a
// browser posts from it: hidden and text fields, the selected option, checked boxes as 'on'.
async function editorHtml(tree: TreeNode, references: EditorState['references']): Promise<string> {
  const state: EditorState = {
    id: '0190f0c8-0000-7000-8000-0000000000b1',
    isNew: false,
    revision: 1,
    name: 'Choices',
    active: true,
    tree,
    catalog: answered.value.conditions,
    byName: catalog,
    savedRules: [],
    references,
    canWrite: true,
    errors: new Map(),
    testCart: {
      form: EMPTY_TEST_CART,
      choices: { channels: [], products: [], shippingMethods: [], paymentMethods: [] },
    },
    token: '',
  };
  const page = { t: translator('de'), csrf: 'csrf', path: `/admin/rules/${state.id}` };
  return String(await RuleEditorPage({ page, state }));
}

/** The rule editor's own form (the page has others: preview, test cart). */
const EDITOR = 'class="rule-editor"';

describe('the rule form’s parameters', () => {
  const CATEGORY = {
    known: '0190f0c8-0000-7000-8000-0000000000c1',
    other: '0190f0c8-0000-7000-8000-0000000000c2',
  };
  const GONE = '0190f0c8-0000-7000-8000-0000000000dd';
  const tree = (): TreeNode => ({
    type: 'andContainer',
    children: [
      { type: 'cartCartAmount', value: { operator: '>=', amount: 20.5 } },
      // An id the shop no longer has, listed before one it knows: both stay, in this order.
      { type: 'cartLineItemInCategory', value: { operator: '=', categoryIds: [GONE, CATEGORY.known] } },
      { type: 'customerCustomerGroup', value: { operator: '=' } },
    ],
  });
  const references = new Map([
    [
      'category',
      [
        { id: CATEGORY.known, label: 'Tee' },
        { id: CATEGORY.other, label: '– Grüner Tee' },
      ],
    ],
    [
      'customerGroup',
      [
        { id: NATIVE_CUSTOMER_GROUPS.consumer, label: 'Privatkunden' },
        { id: NATIVE_CUSTOMER_GROUPS.business, label: 'Geschäftskunden' },
      ],
    ],
  ]);

  it('names only the reference kinds the tree uses', () => {
    expect([...referencedKinds(tree(), catalog)].sort()).toEqual(['category', 'customerGroup']);
    expect(referencedKinds({ type: 'cartCartAmount', value: {} }, catalog).size).toBe(0);
  });

  it('labels parameters and operators in the UI language and offers the shop’s choices for ids', async () => {
    const html = await editorHtml(tree(), references);
    expect(html).toMatch(/<label for="n-children-0--amount">Wert \*<\/label>/);
    expect(html).toMatch(/<label for="n-children-0--operator">Operator \*<\/label>/);
    expect(html).toContain('<option value="&gt;=" selected="">≥ (mindestens)</option>');
    expect(html).not.toContain('<code>amount</code>');
    // No textarea of ids: checkboxes, the held ids first (the unknown one by its id), then the rest.
    expect(html).not.toContain('name="v:/children/1:categoryIds"');
    const category = /<fieldset[^>]*data-param="categoryIds"[\s\S]*?<\/fieldset>/.exec(html)?.[0] ?? '';
    expect(category).toContain('<legend>Kategorien</legend>');
    expect([...category.matchAll(/data-choice="([^"]+)"/g)].map(([, id]) => id)).toEqual([
      GONE,
      CATEGORY.known,
      CATEGORY.other,
    ]);
    expect(category).toContain(`${GONE} (in diesem Shop nicht gefunden)`);
    expect(category).toContain('– Grüner Tee');
    const groups = /<fieldset[^>]*data-param="customerGroupIds"[\s\S]*?<\/fieldset>/.exec(html)?.[0] ?? '';
    expect(groups).toContain('<legend>Kundengruppen *</legend>');
    expect(groups).toContain('Geschäftskunden');
  });

  it('round-trips the tree when untouched, keeps unknown ids, adds and removes chosen ones', async () => {
    const untouched = tree();
    applyFields(untouched, formFields(await editorHtml(untouched, references), EDITOR), catalog, 'de');
    expect(untouched).toEqual(tree());

    const edited = tree();
    const form = formFields(await editorHtml(edited, references), EDITOR);
    delete form[`m:/children/1:categoryIds:${CATEGORY.known}`];
    form[`m:/children/1:categoryIds:${CATEGORY.other}`] = 'on';
    form[`m:/children/2:customerGroupIds:${NATIVE_CUSTOMER_GROUPS.business}`] = 'on';
    applyFields(edited, form, catalog, 'de');
    expect(edited.children?.[1]?.value).toEqual({ operator: '=', categoryIds: [GONE, CATEGORY.other] });
    expect(edited.children?.[2]?.value).toEqual({
      operator: '=',
      customerGroupIds: [NATIVE_CUSTOMER_GROUPS.business],
    });

    // Everything unchecked: the parameter is unset (the operation then names what is missing).
    const cleared = tree();
    const none = formFields(await editorHtml(cleared, references), EDITOR);
    for (const key of Object.keys(none)) if (key.startsWith('m:/children/1:categoryIds:')) delete none[key];
    applyFields(cleared, none, catalog, 'de');
    expect(cleared.children?.[1]?.value).toEqual({ operator: '=' });
  });

  it('keeps the list of ids as text where the shop’s choices could not be loaded', async () => {
    const html = await editorHtml(tree(), new Map());
    expect(html).toContain('name="v:/children/1:categoryIds"');
    const untouched = tree();
    applyFields(untouched, formFields(html, EDITOR), catalog, 'de');
    expect(untouched).toEqual(tree());
  });
});
