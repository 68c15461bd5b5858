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
    if (isReference(node)) {
      ids.add(node.ruleId);
      return;
    }
    for (const child of node.children ?? []) visit(child);
  };
  visit(tree);
  return [...ids];
}
