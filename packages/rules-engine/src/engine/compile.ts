import { findCondition } from '../catalog/catalog.ts';
import type { ConditionDefinition } from '../catalog/model.ts';
import { numberMatches } from '../compare.ts';
import { attempt, RuleError, refusalOf } from '../errors.ts';
import { EVALUATORS } from '../evaluators/index.ts';
import { cartLineItems, forEachItem, someItem } from '../evaluators/line-items.ts';
import type { Evaluator, Value } from '../evaluators/model.ts';
import { type Facts, type LineItemFacts, NON_PRODUCT_ITEM_TYPES } from '../facts.ts';
import { decided, fail, ok, type RuleFailure, type RuleResult } from '../result.ts';
import { type ConditionTree, isReference, type SavedRule, TREE_LIMITS } from '../tree.ts';

/** The spec's limits on saved-rule references. */
export const RULE_LIMITS = { referenceDepth: 8, referencedRules: 100 } as const;

/** A scope the facts must provide: the cart, the order, or a line item (a cart's items do too). */
export type ScopeNeed = 'cart' | 'order' | 'item';

/** What one node decided, and on which fact, for `explain`. */
export interface TraceNode {
  readonly pointer: string;
  readonly type: string;
  readonly result: boolean;
  /** The fact the condition compared (per item in the cart scope). */
  readonly actual?: unknown;
  readonly ruleId?: string;
  readonly children?: readonly TraceNode[];
}

export interface CompileOptions {
  /** Saved rules that `ruleReference` nodes may name. */
  readonly rules?: ReadonlyMap<string, SavedRule>;
}

/**
 * A tree compiled once, to be evaluated many times. Evaluation is synchronous and pure; it refuses
 * facts that lack a scope in `needs` (RULE_SCOPE_MISSING) and an operator a condition does not
 * support where it is reached (RULE_INVALID_VALUE).
 */
export interface CompiledRule {
  /** The scopes evaluation needs, each with the pointer of the first node that needs it. */
  readonly needs: ReadonlyMap<ScopeNeed, string>;
  /** Every saved rule reached through references (transitively). */
  readonly referencedRuleIds: readonly string[];
  /** Whether the facts satisfy the condition (a decision allocates nothing). */
  evaluate(facts: Facts): RuleResult<boolean>;
  /** Evaluates every node (no short-circuit) and returns what each decided. */
  explain(facts: Facts): RuleResult<TraceNode>;
}

/** `trace`, when given, receives the node's trace entry. */
type Run = (facts: Facts, item: LineItemFacts | undefined, trace?: TraceNode[]) => boolean;

/** A saved rule compiled once per compilation, shared by every reference to it. */
interface CompiledReference {
  readonly run: Run;
  /** The scopes its condition needs (pointers within the rule). */
  readonly needs: ReadonlyMap<ScopeNeed, string>;
  /** The saved rules it reaches: itself and everything it references, transitively. */
  readonly reach: ReadonlySet<string>;
  /** The longest chain of references from it down, itself included (1: it references none). */
  readonly height: number;
}

interface Context {
  readonly rules: ReadonlyMap<string, SavedRule>;
  /** Saved rules being compiled, innermost last: a repeat is a cycle. */
  readonly stack: string[];
  /** How many entries of `stack` are roots rather than references (a rule set's own rule). */
  rootDepth: number;
  readonly compiled: Map<string, CompiledReference>;
  /** What the tree being compiled needs and reaches; swapped while a referenced rule compiles. */
  needs: Map<ScopeNeed, string>;
  reach: Set<string>;
  /** The tallest reference compiled into the current tree so far (see `CompiledReference.height`). */
  height: number;
  /**
   * Counts evaluations: a referenced rule remembers its last result for the current evaluation
   * and line item, so a rule named twice (a diamond, or by many rules of a set) runs once.
   */
  readonly epoch: { value: number };
}

function newContext(rules: ReadonlyMap<string, SavedRule>): Context {
  return {
    rules,
    stack: [],
    rootDepth: 0,
    compiled: new Map(),
    needs: new Map(),
    reach: new Set(),
    height: 0,
    epoch: { value: 0 },
  };
}

/** Compiles a condition tree; refuses unknown, disabled or malformed nodes and references. */
export function compileRule(tree: ConditionTree, options: CompileOptions = {}): RuleResult<CompiledRule> {
  return attempt(() => {
    const context = newContext(options.rules ?? new Map());
    const root = compileNode(tree, '', context, false);
    return finish(root, context.needs, context.reach, context.epoch, true);
  });
}

/** Many saved rules compiled together: shared references compile once and run once per evaluation. */
export interface CompiledRuleSet {
  /** Each rule compiled, or why it cannot be (the others still work). */
  readonly rules: ReadonlyMap<string, RuleResult<CompiledRule>>;
  /**
   * Evaluates every rule against one set of facts: a rule that did not compile answers its
   * compile failure, one refusing these facts (a scope they lack) its evaluation failure.
   */
  evaluateAll(facts: Facts): Map<string, RuleResult<boolean>>;
}

/**
 * Compiles saved rules as one set (what a flow or a promotion engine evaluates together). Every
 * rule of the set, and every rule in `options.rules`, may be referenced.
 */
export function compileRuleSet(rules: readonly SavedRule[], options: CompileOptions = {}): CompiledRuleSet {
  const all = new Map(options.rules ?? []);
  for (const rule of rules) all.set(rule.id, rule);
  const context = newContext(all);
  const compiled = new Map<string, RuleResult<InternalCompiledRule>>();
  for (const rule of rules) {
    context.needs = new Map();
    context.reach = new Set();
    context.height = 0;
    try {
      // An active rule compiles as a reference to itself, so its result is shared with the rules
      // that reference it; its own references still may nest the full depth below it.
      context.rootDepth = rule.active ? 1 : 0;
      const root = rule.active
        ? compileReference(rule.id, '', context)
        : compileNode(rule.condition, '', context, false);
      context.reach.delete(rule.id);
      compiled.set(rule.id, ok(finish(root, context.needs, context.reach, context.epoch, false)));
    } catch (error) {
      compiled.set(rule.id, refusalOf(error));
    } finally {
      context.rootDepth = 0;
    }
  }
  return {
    rules: compiled,
    evaluateAll(facts) {
      context.epoch.value += 1;
      const results = new Map<string, RuleResult<boolean>>();
      for (const [id, rule] of compiled) {
        results.set(id, rule.ok ? rule.value.evaluateInEpoch(facts) : rule);
      }
      return results;
    },
  };
}

interface InternalCompiledRule extends CompiledRule {
  /** Evaluates within the current epoch (a rule set's one pass). */
  evaluateInEpoch(facts: Facts): RuleResult<boolean>;
}

function finish(
  root: Run,
  needs: ReadonlyMap<ScopeNeed, string>,
  reach: ReadonlySet<string>,
  epoch: { value: number },
  ownEpoch: boolean,
): InternalCompiledRule {
  const needsCart = needs.has('cart');
  const needsOrder = needs.has('order');
  const needsItem = needs.has('item');
  /** The first scope the facts lack, as a failure; null (nothing allocated) when they have all. */
  const missingScope = (facts: Facts): RuleFailure | null => {
    const cart = facts.cart !== undefined;
    if (
      (!needsCart || cart) &&
      (!needsOrder || facts.order !== undefined) &&
      (!needsItem || cart || facts.lineItem !== undefined)
    ) {
      return null;
    }
    for (const [need, pointer] of needs) {
      if (!provides(facts, need)) {
        return fail(
          'RULE_SCOPE_MISSING',
          `The condition at ${pointer || '/'} needs the ${need === 'item' ? 'cart or line-item' : need} scope, which these facts do not provide.`,
          pointer,
          { scope: need },
        );
      }
    }
    return null;
  };
  const evaluateInEpoch = (facts: Facts): RuleResult<boolean> => {
    const missing = missingScope(facts);
    if (missing !== null) return missing;
    try {
      return decided(root(facts, facts.lineItem));
    } catch (error) {
      // An operator the condition does not support, met where evaluation reached it.
      return refusalOf(error);
    }
  };
  return {
    needs,
    referencedRuleIds: [...reach],
    evaluateInEpoch,
    evaluate(facts) {
      if (ownEpoch) epoch.value += 1;
      return evaluateInEpoch(facts);
    },
    explain(facts) {
      const missing = missingScope(facts);
      if (missing !== null) return missing;
      const trace: TraceNode[] = [];
      try {
        root(facts, facts.lineItem, trace);
      } catch (error) {
        return refusalOf(error);
      }
      return ok(trace[0]!);
    },
  };
}

function provides(facts: Facts, need: ScopeNeed): boolean {
  if (need === 'cart') return facts.cart !== undefined;
  if (need === 'order') return facts.order !== undefined;
  return facts.lineItem !== undefined || facts.cart !== undefined;
}

function invalid(pointer: string, message: string): RuleError {
  return new RuleError('RULE_INVALID_TREE', message, pointer);
}

/** `itemProvided`: an enclosing node hands its children a line item (they need no scope for it). */
function compileNode(
  node: ConditionTree,
  pointer: string,
  context: Context,
  itemProvided: boolean,
  depth = 0,
): Run {
  if (depth > TREE_LIMITS.depth)
    throw invalid(pointer, `Conditions nest deeper than ${TREE_LIMITS.depth} levels.`);
  if (node === null || typeof node !== 'object' || typeof node.type !== 'string') {
    throw invalid(pointer, 'A condition node is an object with a `type`.');
  }
  if (isReference(node)) return compileReference(node.ruleId, pointer, context);
  const definition = findCondition(node.type);
  if (definition === undefined) {
    throw new RuleError(
      'RULE_UNKNOWN_CONDITION',
      `Unknown condition type ${JSON.stringify(node.type)}.`,
      pointer,
      {
        type: node.type,
      },
    );
  }
  if (!definition.enabled) {
    throw new RuleError(
      'RULE_CONDITION_DISABLED',
      `The condition ${node.type} is disabled: ${definition.disabledReason}.`,
      pointer,
      { type: node.type, reason: definition.disabledReason },
    );
  }
  const children = node.children ?? [];
  if (!Array.isArray(children)) throw invalid(pointer, '`children` is a list of condition nodes.');
  const value: Value = node.value !== null && typeof node.value === 'object' ? node.value : {};
  const composite = COMPOSITES[node.type];
  if (composite !== undefined) {
    const need = sourceNeed(definition);
    if (need !== null && !(need === 'item' && itemProvided)) noteNeed(context, need, pointer);
    return composite({ type: node.type, pointer, value, children, context, itemProvided, depth });
  }
  if (children.length > 0) throw invalid(pointer, `The condition ${node.type} takes no children.`);
  const evaluator = EVALUATORS[node.type];
  if (evaluator === undefined)
    throw new Error(`No evaluator is bound to the enabled condition ${node.type}.`);
  const need = sourceNeed(definition);
  if (need !== null && !(need === 'item' && itemProvided)) noteNeed(context, need, pointer);
  return leaf(node.type, pointer, definition, evaluator, evaluator.prepare(value));
}

function noteNeed(context: Context, need: ScopeNeed, pointer: string): void {
  if (!context.needs.has(need)) context.needs.set(need, pointer);
}

/** The scope a catalog condition needs, from its source scopes. */
function sourceNeed(definition: ConditionDefinition): ScopeNeed | null {
  const { scopes } = definition;
  if (scopes.includes('any') || scopes.includes('checkout')) return null;
  if (scopes.includes('lineItem')) return 'item';
  if (scopes.includes('cart')) return 'cart';
  return 'order';
}

function compileReference(ruleId: unknown, pointer: string, context: Context): Run {
  if (typeof ruleId !== 'string' || ruleId === '')
    throw invalid(pointer, 'A rule reference names a `ruleId`.');
  if (context.stack.includes(ruleId)) {
    const cycle = [...context.stack.slice(context.stack.indexOf(ruleId)), ruleId];
    throw new RuleError(
      'RULE_REFERENCE_CYCLE',
      `The rule ${ruleId} references itself through ${cycle.join(' → ')}.`,
      pointer,
      {
        ruleId,
        path: [...context.stack, ruleId],
      },
    );
  }
  if (context.stack.length - context.rootDepth >= RULE_LIMITS.referenceDepth) {
    throw tooDeep(ruleId, pointer, context);
  }
  const reference = context.compiled.get(ruleId) ?? compileSavedRule(ruleId, pointer, context);
  // A rule compiled earlier (shared) is as deep as when it compiled: checked where it is named.
  if (context.stack.length - context.rootDepth + reference.height > RULE_LIMITS.referenceDepth) {
    throw tooDeep(ruleId, pointer, context);
  }
  context.height = Math.max(context.height, reference.height);
  // What the rule needs and reaches counts for the tree that references it, at the reference.
  for (const need of reference.needs.keys()) if (!context.needs.has(need)) context.needs.set(need, pointer);
  for (const id of reference.reach) context.reach.add(id);
  if (context.reach.size > RULE_LIMITS.referencedRules) {
    throw new RuleError(
      'RULE_REFERENCE_LIMIT',
      `More than ${RULE_LIMITS.referencedRules} saved rules are referenced in one evaluation.`,
      pointer,
      { ruleId },
    );
  }
  // A rule named twice (a diamond) shares its compiled code; its trace names the first reference.
  return reference.run;
}

function tooDeep(ruleId: string, pointer: string, context: Context): RuleError {
  return new RuleError(
    'RULE_REFERENCE_DEPTH',
    `Rule references nest deeper than ${RULE_LIMITS.referenceDepth} levels.`,
    pointer,
    { ruleId, path: [...context.stack, ruleId] },
  );
}

function compileSavedRule(ruleId: string, pointer: string, context: Context): CompiledReference {
  const rule = context.rules.get(ruleId);
  if (rule === undefined) {
    throw new RuleError('RULE_REFERENCE_MISSING', `The referenced rule ${ruleId} does not exist.`, pointer, {
      ruleId,
    });
  }
  if (!rule.active) {
    throw new RuleError('RULE_REFERENCE_DISABLED', `The referenced rule ${ruleId} is inactive.`, pointer, {
      ruleId,
    });
  }
  const outerNeeds = context.needs;
  const outerReach = context.reach;
  const outerHeight = context.height;
  context.needs = new Map();
  context.reach = new Set([ruleId]);
  context.height = 0;
  context.stack.push(ruleId);
  let inner: Run;
  let needs: Map<ScopeNeed, string>;
  let reach: Set<string>;
  let height: number;
  try {
    // Compiled as if standalone: its needs and reach are its own, added wherever it is referenced.
    inner = compileNode(rule.condition, '', context, false);
    needs = context.needs;
    reach = context.reach;
    height = context.height + 1;
  } catch (error) {
    // Reported at the reference node the caller wrote, with the rule chain at fault.
    if (!(error instanceof RuleError)) throw error;
    throw new RuleError(error.code, error.message, pointer, {
      ...error.details,
      ruleId: error.details.ruleId ?? ruleId,
      within: [ruleId, ...((error.details.within as string[] | undefined) ?? [])],
    });
  } finally {
    context.stack.pop();
    context.needs = outerNeeds;
    context.reach = outerReach;
    context.height = outerHeight;
  }
  const { epoch } = context;
  let memoEpoch = -1;
  let memoItem: LineItemFacts | undefined;
  let memoResult = false;
  const run: Run = (facts, item, trace) => {
    if (trace === undefined) {
      if (memoEpoch === epoch.value && memoItem === item) return memoResult;
      memoResult = inner(facts, item);
      memoEpoch = epoch.value;
      memoItem = item;
      return memoResult;
    }
    const children: TraceNode[] = [];
    const result = inner(facts, item, children);
    trace.push({ pointer, type: 'ruleReference', ruleId, result, children });
    return result;
  };
  const reference = { run, needs, reach, height };
  context.compiled.set(ruleId, reference);
  return reference;
}

function leaf(
  type: string,
  pointer: string,
  definition: ConditionDefinition,
  evaluator: Evaluator,
  prepared: unknown,
): Run {
  if (evaluator.subject === 'facts') {
    return (facts, item, trace) => {
      const actual = evaluator.read(facts, item, prepared);
      const result = evaluator.test(actual, prepared, facts);
      trace?.push({ pointer, type, result, actual });
      return result;
    };
  }
  const goodsOnly = evaluator.items !== 'all';
  const productsOnly = definition.productLineItemsOnly;
  const excluded = (item: LineItemFacts): boolean => productsOnly && NON_PRODUCT_ITEM_TYPES.has(item.type);
  const one = (facts: Facts, item: LineItemFacts): boolean =>
    !excluded(item) && evaluator.test(evaluator.read(item, facts, prepared), prepared, facts);
  // The cart scope: any item (nested ones included) matches. A plain loop, nothing allocated.
  const anyIn = (facts: Facts, items: readonly LineItemFacts[]): boolean => {
    for (const item of items) {
      if ((!goodsOnly || item.good) && one(facts, item)) return true;
      if (item.children.length > 0 && anyIn(facts, item.children)) return true;
    }
    return false;
  };
  const readOf = (facts: Facts, item: LineItemFacts): unknown =>
    excluded(item) ? null : evaluator.read(item, facts, prepared);
  return (facts, item, trace) => {
    const result = item !== undefined ? one(facts, item) : anyIn(facts, cartLineItems(facts));
    if (trace !== undefined) {
      let actual: unknown;
      if (item !== undefined) actual = readOf(facts, item);
      else {
        const each: unknown[] = [];
        forEachItem(cartLineItems(facts), goodsOnly, (candidate) => each.push(readOf(facts, candidate)));
        actual = each;
      }
      trace.push({ pointer, type, result, actual });
    }
    return result;
  };
}

// Containers and the conditions that filter line items through child conditions.

interface CompositeInput {
  readonly type: string;
  readonly pointer: string;
  readonly value: Value;
  readonly children: readonly ConditionTree[];
  readonly context: Context;
  readonly itemProvided: boolean;
  readonly depth: number;
}

type Composite = (input: CompositeInput) => Run;

function compileChildren(input: CompositeInput, itemProvided: boolean): Run[] {
  return input.children.map((child, index) =>
    compileNode(child, `${input.pointer}/children/${index}`, input.context, itemProvided, input.depth + 1),
  );
}

/**
 * A composite's run from its decision: without a trace it is the decision itself (nothing
 * allocated); with one, the children's traces are collected under a node of its own. `actual`
 * reads what the last decision compared (aggregates), evaluation being synchronous.
 */
function traced(input: CompositeInput, decide: Run, actual?: () => unknown): Run {
  return (facts, item, trace) => {
    if (trace === undefined) return decide(facts, item);
    const children: TraceNode[] = [];
    const result = decide(facts, item, children);
    trace.push({
      pointer: input.pointer,
      type: input.type,
      result,
      ...(actual === undefined ? {} : { actual: actual() }),
      children,
    });
    return result;
  };
}

/** AND of runs: short-circuits unless traced. */
function allOf(
  runs: readonly Run[],
  facts: Facts,
  item: LineItemFacts | undefined,
  trace?: TraceNode[],
): boolean {
  let result = true;
  for (const run of runs) {
    if (!run(facts, item, trace)) {
      result = false;
      if (trace === undefined) return false;
    }
  }
  return result;
}

function numberParam(value: Value, name: string): number | null {
  const given = value[name];
  return typeof given === 'number' ? given : null;
}

/**
 * The filtering conditions (`cartGoodsCount`, `cartGoodsPrice`, `cartLineItemGoodsTotal`,
 * `promotionValue`): an aggregate over the cart's items that pass the children (all must match,
 * evaluated per item), compared with a number. In the line-item scope the aggregate covers that item.
 */
function aggregate(
  parameter: string,
  selects: (item: LineItemFacts) => boolean,
  measure: (item: LineItemFacts) => number,
): Composite {
  return (input) => {
    const filter = compileChildren(input, true);
    const operator = input.value.operator;
    const expected = numberParam(input.value, parameter);
    let total = 0;
    const add = (facts: Facts, candidate: LineItemFacts, childTrace: TraceNode[] | undefined): void => {
      if (selects(candidate) && allOf(filter, facts, candidate, childTrace)) total += measure(candidate);
    };
    const addAll = (
      facts: Facts,
      items: readonly LineItemFacts[],
      childTrace: TraceNode[] | undefined,
    ): void => {
      for (const candidate of items) {
        add(facts, candidate, childTrace);
        if (candidate.children.length > 0) addAll(facts, candidate.children, childTrace);
      }
    };
    return traced(
      input,
      (facts, item, childTrace) => {
        total = 0;
        if (item !== undefined) add(facts, item, childTrace);
        else addAll(facts, cartLineItems(facts), childTrace);
        return numberMatches(total, operator, expected);
      },
      () => total,
    );
  };
}

const isGood = (item: LineItemFacts): boolean => item.good;
const isPromotion = (item: LineItemFacts): boolean => item.type === 'promotion';

const COMPOSITES: Readonly<Record<string, Composite>> = {
  andContainer: (input) => {
    const runs = compileChildren(input, input.itemProvided);
    return traced(input, (facts, item, childTrace) => allOf(runs, facts, item, childTrace));
  },
  orContainer: (input) => {
    const runs = compileChildren(input, input.itemProvided);
    return traced(input, (facts, item, childTrace) => {
      let result = false;
      for (const run of runs) {
        if (run(facts, item, childTrace)) {
          result = true;
          if (childTrace === undefined) break;
        }
      }
      return result;
    });
  },
  notContainer: (input) => {
    if (input.children.length !== 1) throw invalid(input.pointer, 'notContainer takes exactly one child.');
    const [run] = compileChildren(input, input.itemProvided) as [Run];
    return traced(input, (facts, item, childTrace) => !run(facts, item, childTrace));
  },
  xorContainer: (input) => {
    const runs = compileChildren(input, input.itemProvided);
    return traced(input, (facts, item, childTrace) => {
      let matches = 0;
      for (const run of runs) {
        if (run(facts, item, childTrace)) matches += 1;
        if (matches > 1 && childTrace === undefined) break;
      }
      return matches === 1;
    });
  },
  /**
   * Every child must match every item (of `types`, when given); with `minimumShouldMatch`, at least
   * that many items per child. An empty cart does not match; a cart without items of `types` does.
   */
  allLineItemsContainer: (input) => {
    const runs = compileChildren(input, true);
    const types = Array.isArray(input.value.types) ? new Set(input.value.types as string[]) : null;
    const minimum = numberParam(input.value, 'minimumShouldMatch') ?? 0;
    return traced(input, (facts, item, childTrace) => {
      if (item !== undefined) return allOf(runs, facts, item, childTrace);
      const all = cartLineItems(facts);
      if (all.length === 0) return false;
      const items: LineItemFacts[] = [];
      forEachItem(all, false, (candidate) => {
        if (types === null || types.has(candidate.type)) items.push(candidate);
      });
      if (items.length === 0) return true;
      let result = true;
      for (const run of runs) {
        let matched = 0;
        for (const candidate of items) if (run(facts, candidate, childTrace)) matched += 1;
        const holds = minimum > 0 ? matched >= minimum : matched === items.length;
        if (!holds) {
          result = false;
          if (childTrace === undefined) break;
        }
      }
      return result;
    });
  },
  /** The wrapped children (all must match) against the line item, or any of the cart's items. */
  cartLineItemWrapper: (input) => {
    const runs = compileChildren(input, true);
    return traced(input, (facts, item, childTrace) => {
      if (item !== undefined) return allOf(runs, facts, item, childTrace);
      return someItem(cartLineItems(facts), false, (candidate) => allOf(runs, facts, candidate, childTrace));
    });
  },
  cartGoodsCount: aggregate('count', isGood, () => 1),
  cartGoodsPrice: aggregate('amount', isGood, (item) => item.price?.totalPrice ?? 0),
  cartLineItemGoodsTotal: aggregate('count', isGood, (item) => item.quantity),
  promotionValue: aggregate('amount', isPromotion, (item) => -(item.price?.totalPrice ?? 0)),
};

/** The conditions the engine implements itself rather than through a leaf evaluator. */
export const COMPOSITE_CONDITIONS: readonly string[] = Object.keys(COMPOSITES);
