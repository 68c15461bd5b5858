import * as v from 'valibot';
import { fail, ok, type Result } from './result.ts';

// The order, payment and delivery state machines, modelled on Shopware 6's `order.state`,
// `order_transaction.state` and `order_delivery.state`. The tables are data so that docs and
// tests render them; every rule that spans machines lives in `checkTransition`.

export const OrderState = v.picklist(['open', 'in_progress', 'completed', 'cancelled']);
export type OrderState = v.InferOutput<typeof OrderState>;

export const PaymentState = v.picklist([
  'open',
  'authorized',
  'paid',
  'paid_partially',
  'refunded',
  'refunded_partially',
  'cancelled',
  'failed',
  'reminded',
  'unconfirmed',
  'chargeback',
]);
export type PaymentState = v.InferOutput<typeof PaymentState>;

export const DeliveryState = v.picklist([
  'open',
  'shipped',
  'shipped_partially',
  'returned',
  'returned_partially',
  'cancelled',
]);
export type DeliveryState = v.InferOutput<typeof DeliveryState>;

/** One allowed move: `action` takes the machine from `from` to `to`. */
export interface Transition<State extends string = string, Action extends string = string> {
  readonly from: State;
  readonly action: Action;
  readonly to: State;
}

export const ORDER_TRANSITIONS = [
  { from: 'open', action: 'process', to: 'in_progress' },
  { from: 'open', action: 'cancel', to: 'cancelled' },
  { from: 'in_progress', action: 'complete', to: 'completed' },
  { from: 'in_progress', action: 'cancel', to: 'cancelled' },
  { from: 'cancelled', action: 'reopen', to: 'open' },
] as const satisfies readonly Transition<OrderState>[];

export const PAYMENT_TRANSITIONS = [
  { from: 'open', action: 'authorize', to: 'authorized' },
  { from: 'open', action: 'pay', to: 'paid' },
  { from: 'open', action: 'pay_partially', to: 'paid_partially' },
  { from: 'open', action: 'process_unconfirmed', to: 'unconfirmed' },
  { from: 'open', action: 'remind', to: 'reminded' },
  { from: 'open', action: 'fail', to: 'failed' },
  { from: 'open', action: 'cancel', to: 'cancelled' },
  { from: 'unconfirmed', action: 'authorize', to: 'authorized' },
  { from: 'unconfirmed', action: 'pay', to: 'paid' },
  { from: 'unconfirmed', action: 'pay_partially', to: 'paid_partially' },
  { from: 'unconfirmed', action: 'fail', to: 'failed' },
  { from: 'unconfirmed', action: 'cancel', to: 'cancelled' },
  { from: 'authorized', action: 'pay', to: 'paid' },
  { from: 'authorized', action: 'pay_partially', to: 'paid_partially' },
  { from: 'authorized', action: 'fail', to: 'failed' },
  { from: 'authorized', action: 'cancel', to: 'cancelled' },
  { from: 'reminded', action: 'pay', to: 'paid' },
  { from: 'reminded', action: 'pay_partially', to: 'paid_partially' },
  { from: 'reminded', action: 'cancel', to: 'cancelled' },
  { from: 'paid_partially', action: 'pay', to: 'paid' },
  { from: 'paid_partially', action: 'remind', to: 'reminded' },
  { from: 'paid_partially', action: 'refund_partially', to: 'refunded_partially' },
  { from: 'paid_partially', action: 'refund', to: 'refunded' },
  { from: 'paid_partially', action: 'chargeback', to: 'chargeback' },
  { from: 'paid', action: 'refund_partially', to: 'refunded_partially' },
  { from: 'paid', action: 'refund', to: 'refunded' },
  { from: 'paid', action: 'chargeback', to: 'chargeback' },
  { from: 'refunded_partially', action: 'refund', to: 'refunded' },
  { from: 'chargeback', action: 'pay', to: 'paid' },
  { from: 'chargeback', action: 'cancel', to: 'cancelled' },
  { from: 'failed', action: 'pay', to: 'paid' },
  { from: 'failed', action: 'reopen', to: 'open' },
  { from: 'cancelled', action: 'pay', to: 'paid' },
  { from: 'cancelled', action: 'reopen', to: 'open' },
] as const satisfies readonly Transition<PaymentState>[];

export const DELIVERY_TRANSITIONS = [
  { from: 'open', action: 'ship', to: 'shipped' },
  { from: 'open', action: 'ship_partially', to: 'shipped_partially' },
  { from: 'open', action: 'cancel', to: 'cancelled' },
  { from: 'shipped_partially', action: 'ship', to: 'shipped' },
  { from: 'shipped_partially', action: 'retour', to: 'returned' },
  { from: 'shipped_partially', action: 'retour_partially', to: 'returned_partially' },
  { from: 'shipped', action: 'retour', to: 'returned' },
  { from: 'shipped', action: 'retour_partially', to: 'returned_partially' },
  { from: 'returned_partially', action: 'retour', to: 'returned' },
  { from: 'cancelled', action: 'reopen', to: 'open' },
] as const satisfies readonly Transition<DeliveryState>[];

export type OrderAction = (typeof ORDER_TRANSITIONS)[number]['action'];
export type PaymentAction = (typeof PAYMENT_TRANSITIONS)[number]['action'];
export type DeliveryAction = (typeof DELIVERY_TRANSITIONS)[number]['action'];

export const MachineName = v.picklist(['order', 'payment', 'delivery']);
export type MachineName = v.InferOutput<typeof MachineName>;

interface MachineActions {
  order: OrderAction;
  payment: PaymentAction;
  delivery: DeliveryAction;
}
export type StateOf<M extends MachineName> = StateSnapshot[M];
export type ActionOf<M extends MachineName> = MachineActions[M];

export interface StateMachine<M extends MachineName> {
  /** Events of this machine are named `<eventPrefix>.<to>`. */
  readonly eventPrefix: string;
  readonly initial: StateOf<M>;
  readonly states: readonly StateOf<M>[];
  /** States without an outgoing move; other machines may still move under the closed-order rules. */
  readonly terminal: readonly StateOf<M>[];
  readonly transitions: readonly Transition<StateOf<M>, ActionOf<M>>[];
}

/** The three machines as data: states, initial and terminal states, moves, event prefix. */
export const STATE_MACHINES: { readonly [M in MachineName]: StateMachine<M> } = {
  order: {
    eventPrefix: 'order',
    initial: 'open',
    states: OrderState.options,
    terminal: ['completed'],
    transitions: ORDER_TRANSITIONS,
  },
  payment: {
    eventPrefix: 'order_payment',
    initial: 'open',
    states: PaymentState.options,
    terminal: ['refunded'],
    transitions: PAYMENT_TRANSITIONS,
  },
  delivery: {
    eventPrefix: 'order_delivery',
    initial: 'open',
    states: DeliveryState.options,
    terminal: ['returned'],
    transitions: DELIVERY_TRANSITIONS,
  },
};

/** The current state of each machine of one order. */
export const StateSnapshot = v.object({ order: OrderState, payment: PaymentState, delivery: DeliveryState });
export type StateSnapshot = v.InferOutput<typeof StateSnapshot>;

/**
 * Who asks for a move: the merchant (admin/API), an automation flow, the payment provider
 * (verified webhook or server-side capture), or a customer's browser (e.g. a payment return URL,
 * which anyone can forge).
 */
export const TransitionSource = v.picklist(['merchant', 'flow', 'provider', 'browser']);
export type TransitionSource = v.InferOutput<typeof TransitionSource>;

export const TransitionContext = v.object({ source: TransitionSource });
export type TransitionContext = v.InferOutput<typeof TransitionContext>;

/** Payment states that claim money moved or was promised; only these sources may set them. */
export const CONFIRMED_PAYMENT_STATES = [
  'authorized',
  'paid',
  'paid_partially',
  'refunded',
  'refunded_partially',
  'chargeback',
] as const satisfies readonly PaymentState[];
export const PAYMENT_CONFIRMING_SOURCES = [
  'provider',
  'merchant',
] as const satisfies readonly TransitionSource[];

/**
 * The payment and delivery actions still accepted once the order is closed. Everything else on a
 * `completed` order fails with `ORDER_COMPLETED`, on a `cancelled` order with `ORDER_CANCELLED`.
 * Completed: money may still arrive (invoices are paid after delivery), be refunded or charged
 * back, and goods may come back. Cancelled: money that actually moved is recorded (a late capture
 * becomes `paid` so it can be refunded), open payments and deliveries are cancelled or failed, and
 * goods already out may come back; nothing is shipped, reminded or authorized.
 */
export const MOVES_ON_CLOSED_ORDER: {
  readonly [S in 'completed' | 'cancelled']: {
    readonly payment: readonly PaymentAction[];
    readonly delivery: readonly DeliveryAction[];
  };
} = {
  completed: {
    payment: ['pay', 'pay_partially', 'remind', 'refund', 'refund_partially', 'chargeback'],
    delivery: ['retour', 'retour_partially'],
  },
  cancelled: {
    payment: ['pay', 'pay_partially', 'fail', 'cancel', 'refund', 'refund_partially', 'chargeback'],
    delivery: ['cancel', 'retour', 'retour_partially'],
  },
};

/** An order cannot be cancelled while goods are with the customer; record the return first. */
export const DELIVERY_STATES_BLOCKING_ORDER_CANCEL = [
  'shipped',
  'shipped_partially',
  'returned_partially',
] as const satisfies readonly DeliveryState[];

export type TransitionCode =
  | 'SAME_STATE'
  | 'TRANSITION_NOT_ALLOWED'
  | 'PAYMENT_GUARD'
  | 'ORDER_CANCELLED'
  | 'ORDER_COMPLETED'
  | 'DELIVERY_GUARD';

/** An admitted move and the name of the event the caller appends to the outbox with it. */
export interface TransitionStep<M extends MachineName> {
  readonly machine: M;
  readonly from: StateOf<M>;
  readonly to: StateOf<M>;
  readonly action: ActionOf<M>;
  readonly event: string;
}

/** The table entry for `from → to`, if the machine has one (at most one exists). */
export function findTransition<M extends MachineName>(
  machine: M,
  from: StateOf<M>,
  to: StateOf<M>,
): Transition<StateOf<M>, ActionOf<M>> | undefined {
  const transitions: readonly Transition<StateOf<M>, ActionOf<M>>[] = STATE_MACHINES[machine].transitions;
  return transitions.find((transition) => transition.from === from && transition.to === to);
}

/** Every move the table allows out of `from`, in table order. */
export function outgoingTransitions<M extends MachineName>(
  machine: M,
  from: StateOf<M>,
): Transition<StateOf<M>, ActionOf<M>>[] {
  const transitions: readonly Transition<StateOf<M>, ActionOf<M>>[] = STATE_MACHINES[machine].transitions;
  return transitions.filter((transition) => transition.from === from);
}

/** The outbox event of entering `to`: `order.cancelled`, `order_payment.paid`, `order_delivery.shipped`. */
export function transitionEvent<M extends MachineName>(machine: M, to: StateOf<M>): string {
  return `${STATE_MACHINES[machine].eventPrefix}.${to}`;
}

function isOneOf<T extends string>(list: readonly T[], value: string): boolean {
  return list.some((entry) => entry === value);
}

/**
 * Decides whether `machine` may move to `to` given the whole order's states and who asks. Checks,
 * in this order: same state (`SAME_STATE`, so a repeated provider notification can be treated as a
 * no-op), the table (`TRANSITION_NOT_ALLOWED`), the payment authority (`PAYMENT_GUARD`: only the
 * provider or the merchant set a confirmed payment state; never a browser redirect or a flow), the
 * closed-order rules (`ORDER_COMPLETED` / `ORDER_CANCELLED`, see `MOVES_ON_CLOSED_ORDER`), and
 * cancelling an order whose goods are out (`DELIVERY_GUARD`). Cancelling an order whose payment is
 * paid is allowed: refunds are separate payment moves.
 */
export function checkTransition<M extends MachineName>(
  snapshot: StateSnapshot,
  machine: M,
  to: StateOf<M>,
  context: TransitionContext,
): Result<TransitionStep<M>, TransitionCode> {
  const from: StateOf<M> = snapshot[machine];
  if (from === to) return fail('SAME_STATE', `${machine} is already ${to}`);
  const transition = findTransition(machine, from, to);
  if (!transition) return fail('TRANSITION_NOT_ALLOWED', `${machine} cannot move from ${from} to ${to}`);

  if (
    machine === 'payment' &&
    isOneOf(CONFIRMED_PAYMENT_STATES, to) &&
    !isOneOf(PAYMENT_CONFIRMING_SOURCES, context.source)
  ) {
    return fail(
      'PAYMENT_GUARD',
      `payment ${to} is set only by the provider or the merchant, not ${context.source}`,
    );
  }

  if (machine !== 'order' && (snapshot.order === 'completed' || snapshot.order === 'cancelled')) {
    const allowed = MOVES_ON_CLOSED_ORDER[snapshot.order][machine === 'payment' ? 'payment' : 'delivery'];
    if (!isOneOf(allowed, transition.action)) {
      return fail(
        snapshot.order === 'completed' ? 'ORDER_COMPLETED' : 'ORDER_CANCELLED',
        `${machine} cannot ${transition.action} on a ${snapshot.order} order`,
      );
    }
  }

  if (
    machine === 'order' &&
    to === 'cancelled' &&
    isOneOf(DELIVERY_STATES_BLOCKING_ORDER_CANCEL, snapshot.delivery)
  ) {
    return fail('DELIVERY_GUARD', `an order whose delivery is ${snapshot.delivery} cannot be cancelled`);
  }

  return ok({ machine, from, to, action: transition.action, event: transitionEvent(machine, to) });
}

/** True exactly when an allowed order move releases the order's stock reservation (into `cancelled`). */
export function releasesStock<M extends MachineName>(machine: M, from: StateOf<M>, to: StateOf<M>): boolean {
  return machine === 'order' && to === 'cancelled' && findTransition(machine, from, to) !== undefined;
}

/**
 * True exactly when an allowed order move reserves stock again: reopening a cancelled order. The
 * caller reserves every line before it commits the move and refuses the move when a reservation
 * fails with `INSUFFICIENT_STOCK`.
 */
export function reservesStock<M extends MachineName>(machine: M, from: StateOf<M>, to: StateOf<M>): boolean {
  return (
    machine === 'order' &&
    from === 'cancelled' &&
    to === 'open' &&
    findTransition(machine, from, to) !== undefined
  );
}
