/** The six source conditions with no native evaluator, and why (the spec's text, verbatim). */
export const DISABLED_REASONS: Readonly<Record<string, string>> = {
  cartLineItemInGroup:
    'package builders, product provider, sorters and promotion group allocation are not connected',
  promotionCodeOfType: 'promotion line scopes and individual/global/fixed code processing are not connected',
  promotionLineItem: 'promotion line entities and their scope selection are not connected',
  scriptRule: 'no bounded compatible script runtime; arbitrary scripts are not evaluated',
  simple: 'internal helper, not an end-user condition',
  unknown_condition: 'unknown source conditions are rejected, never silently granted',
};
