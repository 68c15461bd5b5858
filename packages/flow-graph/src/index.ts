export {
  ACTION_CONFIG_SCHEMAS,
  type ActionConfigIssue,
  type ActionConfigIssueCode,
  type ActionConfigResult,
  APP_ACTION_FACTS,
  type AppActionFact,
  isJsonValue,
  isKnownAction,
  normalizeActionConfig,
} from './actions.ts';
export {
  type ActionStep,
  type ConditionStep,
  type DelayStep,
  FLOW_LIMITS,
  FLOW_NODE_KINDS,
  type FlowIssueCode,
  type FlowNode,
  type FlowNodeKind,
  type FlowPipeline,
  type StopStep,
} from './model.ts';
export {
  AI_PROPOSAL_CONFIG,
  MAX_PROPOSAL_OPERATIONS,
  ProposalOperation,
  type ProposalOperationKind,
  ProposalOperations,
  ProposalPlan,
  PublishPairOperation,
  SaveRuleOperation,
  SetAppRecordOperation,
} from './proposals.ts';
export { type FlowIssue, type PipelineResult, validatePipeline } from './validate.ts';
export { nextNodeId, nodeById, ruleIdsOf } from './walk.ts';
