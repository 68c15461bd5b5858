/**
 * The native condition tree: a node names a catalog condition (`type`), carries its parameters in
 * `value` and, for containers and filtering conditions, child nodes in `children`. A
 * `ruleReference` node stands for the condition of a saved rule.
 */
export interface ConditionNode {
  readonly type: string;
  readonly value?: Readonly<Record<string, unknown>>;
  readonly children?: readonly ConditionTree[];
}

export interface RuleReferenceNode {
  readonly type: 'ruleReference';
  readonly ruleId: string;
}

export type ConditionTree = ConditionNode | RuleReferenceNode;

/**
 * Bounds on the size of one condition tree. They are Cartwright's own, not the reference's (which
 * has none): a guard against abusive payloads, and they keep every recursive walk far from the
 * stack limit.
 */
export const TREE_LIMITS = { nodes: 1000, depth: 32 } as const;

/** A saved rule as the engine resolves references to it. */
export interface SavedRule {
  readonly id: string;
  readonly condition: ConditionTree;
  /** An inactive rule cannot be referenced. */
  readonly active: boolean;
}

export function isReference(node: ConditionTree): node is RuleReferenceNode {
  return node.type === 'ruleReference';
}

/** The ids of the saved rules a tree references directly (not through those rules). */
export function referencedRuleIds(tree: ConditionTree): string[] {
  const ids = new Set<string>();
  const visit = (node: ConditionTree): void => {
    if (node === null || typeof node !== 'object') return;
    if (isReference(node)) {
      if (typeof node.ruleId === 'string') ids.add(node.ruleId);
      return;
    }
    if (Array.isArray(node.children)) for (const child of node.children) visit(child);
  };
  visit(tree);
  return [...ids];
}
