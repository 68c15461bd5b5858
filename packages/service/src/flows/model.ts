import type { Executor, FlowActorJson, FlowJobRow } from '@cartwright/repository';
import type { Failure, Result, Success } from '../kernel/errors.ts';
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
  /**
   * What the action's outside part answered for this step (its `ok` value), when the action has
   * one: the inside part records it, the effect has already happened.
   */
  readonly outside?: unknown;
}

/**
 * What an action's outside part gets: the step without a transaction. It runs after the step's
 * pending receipt has committed and before the step's transaction opens, so it may call a server
 * outside the database (mail, an app's external service) and open short transactions of its own.
 */
export type OutsideContext = Omit<ActionContext, 'tx' | 'outside'>;

/**
 * What an outside part answers: a value for the inside part, a definite failure (the step fails
 * with its code; nothing happened), or a failure whose effect may or may not have happened
 * (`uncertain`: the job becomes `uncertain` for the merchant to resolve, never repeated blindly).
 */
export type OutsideOutcome = Success<unknown> | (Failure & { readonly uncertain?: true });

/** The part of an action whose effect lies outside the database. It must be idempotent under `stepKey`. */
export type OutsidePart = (
  context: OutsideContext,
  config: Readonly<Record<string, unknown>>,
) => Promise<OutsideOutcome>;

/**
 * A flow action: a real domain effect through the service's guarded operations (never raw table
 * writes), with the config already normalized by `@cartwright/flow-graph`. Answers the step's
 * result (stored on its receipt and returned on replay) or a failure with a stable code. An
 * action whose effect lies outside the database also has an `outside` part (decision 0037): the
 * executor runs it with no transaction open, then this handler, in the step's transaction, with
 * the outside part's value in `context.outside`.
 */
export interface ActionHandler {
  (context: ActionContext, config: Readonly<Record<string, unknown>>): Promise<Result<unknown>>;
  readonly outside?: OutsidePart | undefined;
}

/** An action in two parts: `outside` (no transaction open), then `inside` (the step's transaction). */
export function withOutsidePart(outside: OutsidePart, inside: ActionHandler): ActionHandler {
  return Object.assign(
    (context: ActionContext, config: Readonly<Record<string, unknown>>) => inside(context, config),
    { outside },
  );
}
