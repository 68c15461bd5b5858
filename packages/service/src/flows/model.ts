import type { Executor, FlowActorJson, FlowJobRow } from '@cartwright/repository';
import type { Result } from '../kernel/errors.ts';
import type { Services } from '../kernel/services.ts';

/** What a flow job acts on: the ids its starting event names. */
export interface FlowSubject {
  readonly orderId?: string;
  readonly customerId?: string;
}

/** Who a flow acts for (the member or token that last saved it, or the shop for its starters). */
export type FlowActor = FlowActorJson;

/**
 * What an action handler gets. `tx` is the action's own transaction: the handler's effects, the
 * step's receipt confirmation and the job's advance commit together or not at all.
 */
export interface ActionContext {
  readonly tx: Executor;
  readonly services: Services;
  readonly tenantId: string;
  readonly job: FlowJobRow;
  readonly nodeId: string;
  readonly subject: FlowSubject;
  readonly actor: FlowActor;
  /** The step key `flow:<job_id>:<node_id>`, e.g. an idempotency key for what the action creates. */
  readonly stepKey: string;
}

/**
 * A flow action: a real domain effect through the service's guarded operations (never raw table
 * writes), with the config already normalized by `@cartwright/flow-graph`. Answers the step's
 * result (stored on its receipt and returned on replay) or a failure with a stable code.
 */
export type ActionHandler = (
  context: ActionContext,
  config: Readonly<Record<string, unknown>>,
) => Promise<Result<unknown>>;
