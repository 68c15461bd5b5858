import { type Executor, findDefinitions } from '@cartwright/repository';
import {
  type CompiledRule,
  type ConditionTree,
  compileRule,
  RULE_LIMITS,
  type RuleFailure,
  referencedRuleIds,
  type SavedRule,
} from '@cartwright/rules-engine';
import { type Failure, fail, type Result } from '../kernel/errors.ts';

/** A saved rule as loaded, with the revision it was read at (null: the version being saved). */
export interface FrozenRule extends SavedRule {
  readonly revision: number | null;
}

/** The condition a stored rule definition holds (`data.condition`). */
export function conditionOf(data: unknown): ConditionTree {
  return ((data as { condition?: unknown } | null)?.condition ?? null) as ConditionTree;
}

/**
 * Loads the saved rules reachable from `tree` through references, breadth first and bounded: no
 * further than the depth limit and one rule past the reference limit, so the compiler can name the
 * excess. `replace` stands in for stored rules (a rule being saved is checked in its new form).
 * `lock` holds the rules the tree names directly (FOR SHARE) so none is deleted under a save.
 */
export async function loadReferencedRules(
  tx: Executor,
  tenantId: string,
  tree: ConditionTree,
  options: { readonly replace?: SavedRule; readonly lock?: boolean } = {},
): Promise<Map<string, FrozenRule>> {
  const rules = new Map<string, FrozenRule>();
  if (options.replace) rules.set(options.replace.id, { ...options.replace, revision: null });
  let frontier = [
    ...referencedRuleIds(tree),
    ...(options.replace ? referencedRuleIds(options.replace.condition) : []),
  ];
  for (let depth = 0; depth <= RULE_LIMITS.referenceDepth; depth += 1) {
    const wanted = [...new Set(frontier)].filter((id) => !rules.has(id));
    if (wanted.length === 0) break;
    const lock = options.lock && depth === 0 ? 'share' : undefined;
    const next: string[] = [];
    for (const row of await findDefinitions(tx, tenantId, 'rule', wanted, lock)) {
      const condition = conditionOf(row.data);
      rules.set(row.id, { id: row.id, revision: row.revision, active: row.active, condition });
      next.push(...referencedRuleIds(condition));
    }
    if (rules.size > RULE_LIMITS.referencedRules) break;
    frontier = next;
  }
  return rules;
}

/** A rule error as the service answers it: the engine's code, message and node. */
export function ruleFailure(error: RuleFailure, pointerPrefix: string): Failure {
  return fail(error.code, error.detail, {
    errors: [{ pointer: `${pointerPrefix}${error.pointer}`, message: error.detail }],
    extensions: { ...error.details },
  });
}

/** Compiles a condition with the shop's saved rules; engine errors become failures. */
export async function compileWithSavedRules(
  tx: Executor,
  tenantId: string,
  tree: ConditionTree,
  pointerPrefix: string,
  options: { readonly replace?: SavedRule; readonly lock?: boolean } = {},
): Promise<Result<CompiledRule>> {
  const rules = await loadReferencedRules(tx, tenantId, tree, options);
  const compiled = compileRule(tree, { rules });
  return compiled.ok ? compiled : ruleFailure(compiled, pointerPrefix);
}
