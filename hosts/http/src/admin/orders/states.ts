import {
  checkTransition,
  type MachineName,
  outgoingTransitions,
  STATE_MACHINES,
  type StateOf,
  type StateSnapshot,
} from '@cartwright/commerce';
import type { Locale } from '../i18n.ts';

// The order, payment and delivery states in the UI languages (decision 0047), keyed by the state
// machines' own codes (`@cartwright/commerce`): a state added to a machine without a label here
// fails tsc, like a missing translation. The moves a page offers come from the same tables.

type Labels = { readonly [L in Locale]: string };
type StateLabels = { readonly [M in MachineName]: { readonly [S in StateOf<M>]: Labels } };

export const STATE_LABELS: StateLabels = {
  order: {
    open: { en: 'Open', de: 'Offen', es: 'Abierto', fr: 'Ouverte' },
    in_progress: { en: 'In progress', de: 'In Bearbeitung', es: 'En curso', fr: 'En cours' },
    completed: { en: 'Completed', de: 'Abgeschlossen', es: 'Completado', fr: 'Terminée' },
    cancelled: { en: 'Cancelled', de: 'Storniert', es: 'Cancelado', fr: 'Annulée' },
  },
  payment: {
    open: { en: 'Open', de: 'Offen', es: 'Pendiente', fr: 'En attente' },
    authorized: { en: 'Authorized', de: 'Autorisiert', es: 'Autorizado', fr: 'Autorisé' },
    paid: { en: 'Paid', de: 'Bezahlt', es: 'Pagado', fr: 'Payé' },
    paid_partially: {
      en: 'Partially paid',
      de: 'Teilweise bezahlt',
      es: 'Pagado parcialmente',
      fr: 'Payé partiellement',
    },
    refunded: { en: 'Refunded', de: 'Erstattet', es: 'Reembolsado', fr: 'Remboursé' },
    refunded_partially: {
      en: 'Partially refunded',
      de: 'Teilweise erstattet',
      es: 'Reembolsado parcialmente',
      fr: 'Remboursé partiellement',
    },
    cancelled: { en: 'Cancelled', de: 'Storniert', es: 'Cancelado', fr: 'Annulé' },
    failed: { en: 'Failed', de: 'Fehlgeschlagen', es: 'Fallido', fr: 'Échoué' },
    reminded: { en: 'Reminded', de: 'Erinnert', es: 'Recordado', fr: 'Relancé' },
    unconfirmed: { en: 'Unconfirmed', de: 'Unbestätigt', es: 'Sin confirmar', fr: 'Non confirmé' },
    chargeback: { en: 'Chargeback', de: 'Rückbuchung', es: 'Contracargo', fr: 'Rétrofacturation' },
  },
  delivery: {
    open: { en: 'Open', de: 'Offen', es: 'Pendiente', fr: 'En attente' },
    shipped: { en: 'Shipped', de: 'Versandt', es: 'Enviado', fr: 'Expédiée' },
    shipped_partially: {
      en: 'Partially shipped',
      de: 'Teilweise versandt',
      es: 'Enviado parcialmente',
      fr: 'Expédiée partiellement',
    },
    returned: { en: 'Returned', de: 'Retourniert', es: 'Devuelto', fr: 'Retournée' },
    returned_partially: {
      en: 'Partially returned',
      de: 'Teilweise retourniert',
      es: 'Devuelto parcialmente',
      fr: 'Retournée partiellement',
    },
    cancelled: { en: 'Cancelled', de: 'Storniert', es: 'Cancelado', fr: 'Annulée' },
  },
};

export const MACHINES = ['order', 'payment', 'delivery'] as const satisfies readonly MachineName[];

function isStateOf<M extends MachineName>(machine: M, code: string): code is StateOf<M> {
  return (STATE_MACHINES[machine].states as readonly string[]).includes(code);
}

/** A machine's state in the UI language; a code no machine knows is shown as it is. */
export function stateLabel(machine: MachineName, code: string, locale: Locale): string {
  if (!isStateOf(machine, code)) return code;
  const labels = STATE_LABELS[machine] as Record<string, Labels>;
  return labels[code]?.[locale] ?? code;
}

/** The three states of an order as the machines' snapshot, or null when one is not a known code. */
export function snapshotOf(order: {
  readonly state: string;
  readonly paymentState: string;
  readonly deliveryState: string;
}): StateSnapshot | null {
  const { state, paymentState, deliveryState } = order;
  if (
    !isStateOf('order', state) ||
    !isStateOf('payment', paymentState) ||
    !isStateOf('delivery', deliveryState)
  )
    return null;
  return { order: state, payment: paymentState, delivery: deliveryState };
}

/**
 * The moves a merchant may ask for from the order's current states: the machine's table out of
 * the current state, less those its guards refuse now (a closed order, goods still out), exactly
 * as `orders.transition` checks them (`source: 'merchant'`).
 */
export function offeredMoves(snapshot: StateSnapshot, machine: MachineName): string[] {
  return outgoingTransitions(machine, snapshot[machine])
    .map((transition) => transition.to as string)
    .filter((to) => checkTransition(snapshot, machine, to as never, { source: 'merchant' }).ok);
}
