import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONFIRMED_PAYMENT_STATES,
  checkTransition,
  type MachineName,
  MOVES_ON_CLOSED_ORDER,
  outgoingTransitions,
  releasesStock,
  reservesStock,
  STATE_MACHINES,
  type StateOf,
  type StateSnapshot,
  type TransitionSource,
  transitionEvent,
} from './state-machines.ts';

const MACHINES: readonly MachineName[] = ['order', 'payment', 'delivery'];
const SOURCES: readonly TransitionSource[] = ['merchant', 'flow', 'provider', 'browser'];
const INITIAL: StateSnapshot = { order: 'open', payment: 'open', delivery: 'open' };

/** Every snapshot of the three machines: 4 × 11 × 6. */
const ALL_SNAPSHOTS: StateSnapshot[] = STATE_MACHINES.order.states.flatMap((order) =>
  STATE_MACHINES.payment.states.flatMap((payment) =>
    STATE_MACHINES.delivery.states.map((delivery) => ({ order, payment, delivery })),
  ),
);

/** Every (snapshot, machine, target, source) request with its answer. */
const ALL_REQUESTS = ALL_SNAPSHOTS.flatMap((snapshot) =>
  MACHINES.flatMap((machine) =>
    STATE_MACHINES[machine].states.flatMap((to: StateOf<typeof machine>) =>
      SOURCES.map((source) => ({
        snapshot,
        machine,
        to,
        source,
        result: checkTransition(snapshot, machine, to, { source }),
      })),
    ),
  ),
);

describe('the transition tables', () => {
  it.each(MACHINES)('%s: moves stay inside the state set, never loop and are unambiguous', (machine) => {
    const { states, transitions, initial } = STATE_MACHINES[machine];
    expect(states).toContain(initial);
    const byAction = new Set<string>();
    const byTarget = new Set<string>();
    for (const { from, action, to } of transitions) {
      expect(states).toContain(from);
      expect(states).toContain(to);
      expect(from).not.toBe(to);
      byAction.add(`${from} ${action}`);
      byTarget.add(`${from} ${to}`);
    }
    expect(byAction.size).toBe(transitions.length);
    expect(byTarget.size).toBe(transitions.length);
  });

  it.each(MACHINES)('%s: every state is reachable from the initial state', (machine) => {
    const { states, transitions, initial } = STATE_MACHINES[machine];
    const reached = new Set<string>([initial]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const { from, to } of transitions) {
        if (reached.has(from) && !reached.has(to)) {
          reached.add(to);
          grew = true;
        }
      }
    }
    expect([...reached].sort()).toEqual([...states].sort());
  });

  it.each([
    ['order', ['completed']],
    ['payment', ['refunded']],
    ['delivery', ['returned']],
  ] as const)('%s: the terminal states are exactly %j and have no outgoing move', (machine, terminal) => {
    const { states, transitions } = STATE_MACHINES[machine];
    const withoutMoves = states.filter(
      (state) => !transitions.some((transition) => transition.from === state),
    );
    expect(withoutMoves).toEqual(terminal);
    expect(STATE_MACHINES[machine].terminal).toEqual(terminal);
  });

  it('names closed-order exceptions only with actions the machines have', () => {
    for (const closed of [MOVES_ON_CLOSED_ORDER.completed, MOVES_ON_CLOSED_ORDER.cancelled]) {
      for (const action of closed.payment) {
        expect(STATE_MACHINES.payment.transitions.map((t) => t.action)).toContain(action);
      }
      for (const action of closed.delivery) {
        expect(STATE_MACHINES.delivery.transitions.map((t) => t.action)).toContain(action);
      }
    }
  });
});

describe('checkTransition over every snapshot, target and source', () => {
  it('admits only moves from the table, with their action and event', () => {
    for (const { snapshot, machine, to, result } of ALL_REQUESTS) {
      if (!result.ok) continue;
      const from = snapshot[machine];
      const transition = STATE_MACHINES[machine].transitions.find((t) => t.from === from && t.to === to);
      expect(transition).toBeDefined();
      expect(result.value).toEqual({
        machine,
        from,
        to,
        action: transition?.action,
        event: `${STATE_MACHINES[machine].eventPrefix}.${to}`,
      });
    }
  });

  it('never ships the delivery of a cancelled order', () => {
    const shipped = ALL_REQUESTS.filter(
      ({ snapshot, machine, to, result }) =>
        result.ok && machine === 'delivery' && snapshot.order === 'cancelled' && to.startsWith('shipped'),
    );
    expect(shipped).toEqual([]);
  });

  it('never lets a browser or a flow set a confirmed payment state', () => {
    const confirmed: readonly string[] = CONFIRMED_PAYMENT_STATES;
    const admitted = ALL_REQUESTS.filter(
      ({ machine, to, source, result }) =>
        result.ok &&
        machine === 'payment' &&
        confirmed.includes(to) &&
        (source === 'browser' || source === 'flow'),
    );
    expect(admitted).toEqual([]);
    const refused = ALL_REQUESTS.filter(
      ({ machine, to, source, result }) =>
        !result.ok &&
        result.code === 'PAYMENT_GUARD' &&
        machine === 'payment' &&
        source === 'browser' &&
        to === 'paid',
    );
    expect(refused.length).toBeGreaterThan(0);
  });

  it.each(['completed', 'cancelled'] as const)(
    'admits on a %s order only the documented payment and delivery actions',
    (closed) => {
      for (const { snapshot, machine, result } of ALL_REQUESTS) {
        if (!result.ok || machine === 'order' || snapshot.order !== closed) continue;
        const allowed: readonly string[] = MOVES_ON_CLOSED_ORDER[closed][machine];
        expect(allowed).toContain(result.value.action);
      }
    },
  );

  it('admits nothing out of a terminal state', () => {
    for (const { snapshot, machine, result } of ALL_REQUESTS) {
      const terminal: readonly string[] = STATE_MACHINES[machine].terminal;
      if (terminal.includes(snapshot[machine])) expect(result.ok).toBe(false);
    }
  });
});

describe('checkTransition guards', () => {
  it.each<[string, StateSnapshot, MachineName, string, TransitionSource, string]>([
    ['same state', INITIAL, 'order', 'open', 'merchant', 'SAME_STATE'],
    [
      'same payment state from the provider',
      { ...INITIAL, payment: 'paid' },
      'payment',
      'paid',
      'provider',
      'SAME_STATE',
    ],
    ['not in the table', INITIAL, 'order', 'completed', 'merchant', 'TRANSITION_NOT_ALLOWED'],
    [
      'out of a terminal state',
      { ...INITIAL, order: 'completed' },
      'order',
      'open',
      'merchant',
      'TRANSITION_NOT_ALLOWED',
    ],
    ['refunding an unpaid payment', INITIAL, 'payment', 'refunded', 'merchant', 'TRANSITION_NOT_ALLOWED'],
    ['paid from a browser redirect', INITIAL, 'payment', 'paid', 'browser', 'PAYMENT_GUARD'],
    ['paid from a flow', INITIAL, 'payment', 'paid', 'flow', 'PAYMENT_GUARD'],
    ['paid partially from a browser', INITIAL, 'payment', 'paid_partially', 'browser', 'PAYMENT_GUARD'],
    ['authorized from a browser', INITIAL, 'payment', 'authorized', 'browser', 'PAYMENT_GUARD'],
    [
      'refund from a browser',
      { ...INITIAL, payment: 'paid' },
      'payment',
      'refunded',
      'browser',
      'PAYMENT_GUARD',
    ],
    [
      'chargeback from a flow',
      { ...INITIAL, payment: 'paid' },
      'payment',
      'chargeback',
      'flow',
      'PAYMENT_GUARD',
    ],
    [
      'ship a cancelled order',
      { ...INITIAL, order: 'cancelled' },
      'delivery',
      'shipped',
      'merchant',
      'ORDER_CANCELLED',
    ],
    [
      'ship part of a cancelled order',
      { ...INITIAL, order: 'cancelled' },
      'delivery',
      'shipped_partially',
      'flow',
      'ORDER_CANCELLED',
    ],
    [
      'remind on a cancelled order',
      { ...INITIAL, order: 'cancelled' },
      'payment',
      'reminded',
      'merchant',
      'ORDER_CANCELLED',
    ],
    [
      'authorize on a cancelled order',
      { ...INITIAL, order: 'cancelled' },
      'payment',
      'authorized',
      'provider',
      'ORDER_CANCELLED',
    ],
    [
      'ship a completed order',
      { ...INITIAL, order: 'completed' },
      'delivery',
      'shipped',
      'merchant',
      'ORDER_COMPLETED',
    ],
    [
      'cancel payment of a completed order',
      { ...INITIAL, order: 'completed' },
      'payment',
      'cancelled',
      'merchant',
      'ORDER_COMPLETED',
    ],
    [
      'cancel a shipped order',
      { ...INITIAL, order: 'in_progress', delivery: 'shipped' },
      'order',
      'cancelled',
      'merchant',
      'DELIVERY_GUARD',
    ],
    [
      'cancel a partly returned order',
      { ...INITIAL, delivery: 'returned_partially' },
      'order',
      'cancelled',
      'merchant',
      'DELIVERY_GUARD',
    ],
  ])('%s → %s', (_name, snapshot, machine, to, source, code) => {
    const result = checkTransition(snapshot, machine, to as StateOf<typeof machine>, { source });
    expect(result).toMatchObject({ ok: false, code });
  });

  it.each<[string, StateSnapshot, MachineName, string, TransitionSource, string, string]>([
    ['process an order', INITIAL, 'order', 'in_progress', 'merchant', 'process', 'order.in_progress'],
    [
      'cancel a paid order',
      { ...INITIAL, payment: 'paid' },
      'order',
      'cancelled',
      'flow',
      'cancel',
      'order.cancelled',
    ],
    [
      'cancel an order whose goods came back',
      { ...INITIAL, order: 'in_progress', delivery: 'returned' },
      'order',
      'cancelled',
      'merchant',
      'cancel',
      'order.cancelled',
    ],
    [
      'reopen a cancelled order',
      { ...INITIAL, order: 'cancelled' },
      'order',
      'open',
      'merchant',
      'reopen',
      'order.open',
    ],
    ['provider captures', INITIAL, 'payment', 'paid', 'provider', 'pay', 'order_payment.paid'],
    ['merchant books a transfer', INITIAL, 'payment', 'paid', 'merchant', 'pay', 'order_payment.paid'],
    ['browser reports a failure', INITIAL, 'payment', 'failed', 'browser', 'fail', 'order_payment.failed'],
    [
      'browser leaves it unconfirmed',
      INITIAL,
      'payment',
      'unconfirmed',
      'browser',
      'process_unconfirmed',
      'order_payment.unconfirmed',
    ],
    ['flow sends a reminder', INITIAL, 'payment', 'reminded', 'flow', 'remind', 'order_payment.reminded'],
    [
      'refund on a cancelled order',
      { order: 'cancelled', payment: 'paid', delivery: 'open' },
      'payment',
      'refunded',
      'merchant',
      'refund',
      'order_payment.refunded',
    ],
    [
      'late capture on a cancelled order',
      { order: 'cancelled', payment: 'cancelled', delivery: 'cancelled' },
      'payment',
      'paid',
      'provider',
      'pay',
      'order_payment.paid',
    ],
    [
      'invoice paid after completion',
      { order: 'completed', payment: 'open', delivery: 'shipped' },
      'payment',
      'paid',
      'merchant',
      'pay',
      'order_payment.paid',
    ],
    [
      'return after completion',
      { order: 'completed', payment: 'paid', delivery: 'shipped' },
      'delivery',
      'returned',
      'merchant',
      'retour',
      'order_delivery.returned',
    ],
    [
      'cancel the delivery of a cancelled order',
      { ...INITIAL, order: 'cancelled' },
      'delivery',
      'cancelled',
      'flow',
      'cancel',
      'order_delivery.cancelled',
    ],
    [
      'ship',
      { ...INITIAL, order: 'in_progress' },
      'delivery',
      'shipped',
      'merchant',
      'ship',
      'order_delivery.shipped',
    ],
  ])('%s', (_name, snapshot, machine, to, source, action, event) => {
    const result = checkTransition(snapshot, machine, to as StateOf<typeof machine>, { source });
    expect(result).toEqual({ ok: true, value: { machine, from: snapshot[machine], to, action, event } });
  });
});

describe('random walks through the machines', () => {
  const step = fc.record({
    machine: fc.constantFrom(...MACHINES),
    choice: fc.nat(),
    source: fc.constantFrom(...SOURCES),
  });

  it('stay inside the state sets and keep every guard', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        let snapshot: StateSnapshot = INITIAL;
        for (const { machine, choice, source } of steps) {
          const options = outgoingTransitions(machine, snapshot[machine]);
          if (options.length === 0) continue;
          const { to } = options[choice % options.length]!;
          const result = checkTransition(snapshot, machine, to, { source });
          if (!result.ok) continue;
          if (machine === 'delivery')
            expect(snapshot.order === 'cancelled' && to.startsWith('shipped')).toBe(false);
          if (machine === 'payment' && source === 'browser')
            expect(to).not.toMatch(/^(paid|refunded|chargeback)/);
          snapshot = { ...snapshot, [machine]: to };
          for (const name of MACHINES) expect(STATE_MACHINES[name].states).toContain(snapshot[name]);
        }
      }),
    );
  });
});

describe('transitionEvent', () => {
  it.each([
    ['order', 'cancelled', 'order.cancelled'],
    ['payment', 'paid', 'order_payment.paid'],
    ['delivery', 'shipped', 'order_delivery.shipped'],
  ] as const)('%s %s → %s', (machine, to, event) => {
    expect(transitionEvent(machine, to)).toBe(event);
  });
});

describe('stock effects of order moves', () => {
  it.each<[MachineName, string, string, boolean, boolean]>([
    ['order', 'open', 'cancelled', true, false],
    ['order', 'in_progress', 'cancelled', true, false],
    ['order', 'cancelled', 'open', false, true],
    ['order', 'open', 'in_progress', false, false],
    ['order', 'in_progress', 'completed', false, false],
    ['order', 'completed', 'cancelled', false, false],
    ['payment', 'open', 'cancelled', false, false],
    ['payment', 'cancelled', 'open', false, false],
    ['delivery', 'open', 'cancelled', false, false],
    ['delivery', 'cancelled', 'open', false, false],
  ])('%s %s → %s: releases %s, reserves %s', (machine, from, to, releases, reserves) => {
    expect(releasesStock(machine, from as StateOf<typeof machine>, to as StateOf<typeof machine>)).toBe(
      releases,
    );
    expect(reservesStock(machine, from as StateOf<typeof machine>, to as StateOf<typeof machine>)).toBe(
      reserves,
    );
  });

  it('exactly the order moves into cancelled release and the reopen reserves', () => {
    for (const machine of MACHINES) {
      for (const { from, to } of STATE_MACHINES[machine].transitions) {
        expect(releasesStock(machine, from, to)).toBe(machine === 'order' && to === 'cancelled');
        expect(reservesStock(machine, from, to)).toBe(machine === 'order' && from === 'cancelled');
      }
    }
  });
});
