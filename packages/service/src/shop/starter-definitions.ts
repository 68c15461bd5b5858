import type { Translated } from '../kernel/schemas.ts';

/** The two native customer groups have fixed ids in every shop (arbitrary group ids are unsupported). */
export const NATIVE_CUSTOMER_GROUPS = {
  consumer: '01900000-0000-7000-8000-000000000001',
  business: '01900000-0000-7000-8000-000000000002',
} as const;

interface StarterRule {
  readonly kind: 'rule';
  readonly key: string;
  readonly data: {
    readonly name: Translated;
    readonly description: Translated;
    readonly priority: number;
    readonly condition: unknown;
  };
}

interface StarterFlow {
  readonly kind: 'flow';
  readonly key: string;
  readonly data: {
    readonly name: Translated;
    readonly instruction: Translated;
    readonly locale: string;
    readonly trigger: string;
    readonly condition: null;
    readonly pipeline: { readonly entry: string; readonly nodes: readonly unknown[] };
  };
}

interface StarterChannel {
  readonly kind: 'channel';
  readonly key: string;
  readonly data: {
    readonly name: Translated;
    readonly mode: 'storefront';
    readonly paused: false;
    readonly private: false;
  };
}

export type StarterDefinition = StarterRule | StarterFlow | StarterChannel;

function noteFlow(
  key: string,
  trigger: string,
  name: Translated,
  instruction: Translated,
  note: Translated,
): StarterFlow {
  return {
    kind: 'flow',
    key,
    data: {
      name,
      instruction,
      locale: 'en',
      trigger,
      condition: null,
      pipeline: {
        entry: 'note',
        nodes: [
          { id: 'note', kind: 'action', action: 'note', config: { text: note }, next: 'end' },
          { id: 'end', kind: 'stop' },
        ],
      },
    },
  };
}

/**
 * What every new shop starts with. The starter flows only write order activity: they send no
 * email, charge nobody, call no model and enable no discount.
 */
export const STARTER_DEFINITIONS: readonly StarterDefinition[] = [
  {
    kind: 'channel',
    key: 'main_storefront',
    data: {
      name: { en: 'Storefront', de: 'Storefront', es: 'Tienda', fr: 'Boutique' },
      mode: 'storefront',
      paused: false,
      private: false,
    },
  },
  {
    kind: 'rule',
    key: 'default_all_orders',
    data: {
      name: {
        en: 'All orders',
        de: 'Alle Bestellungen',
        es: 'Todos los pedidos',
        fr: 'Toutes les commandes',
      },
      description: {
        en: 'Matches every order and cart.',
        de: 'Trifft auf jede Bestellung und jeden Warenkorb zu.',
        es: 'Se cumple para cada pedido y cada carrito.',
        fr: 'S’applique à chaque commande et à chaque panier.',
      },
      priority: 0,
      condition: { type: 'alwaysValid' },
    },
  },
  {
    kind: 'rule',
    key: 'default_business_customers',
    data: {
      name: {
        en: 'Business customers',
        de: 'Geschäftskunden',
        es: 'Clientes empresariales',
        fr: 'Clients professionnels',
      },
      description: {
        en: 'The customer belongs to the business customer group.',
        de: 'Der Kunde gehört zur Kundengruppe Geschäftskunden.',
        es: 'El cliente pertenece al grupo de clientes empresariales.',
        fr: 'Le client appartient au groupe des clients professionnels.',
      },
      priority: 0,
      condition: {
        type: 'customerCustomerGroup',
        value: { operator: '=', customerGroupIds: [NATIVE_CUSTOMER_GROUPS.business] },
      },
    },
  },
  {
    kind: 'rule',
    key: 'default_cart_100',
    data: {
      name: {
        en: 'Cart of 100 or more',
        de: 'Warenkorb ab 100',
        es: 'Carrito de 100 o más',
        fr: 'Panier de 100 ou plus',
      },
      description: {
        en: 'The cart total is at least 100 in the cart currency.',
        de: 'Die Warenkorbsumme beträgt mindestens 100 in der Warenkorbwährung.',
        es: 'El total del carrito es de al menos 100 en la moneda del carrito.',
        fr: 'Le total du panier est d’au moins 100 dans la devise du panier.',
      },
      priority: 0,
      condition: { type: 'cartCartAmount', value: { operator: '>=', amount: 100 } },
    },
  },
  noteFlow(
    'default_order_received',
    'order.placed',
    {
      en: 'Order received',
      de: 'Bestellung eingegangen',
      es: 'Pedido recibido',
      fr: 'Commande reçue',
    },
    {
      en: 'When an order is placed, note it in the order activity.',
      de: 'Wenn eine Bestellung aufgegeben wird, wird dies in der Bestellaktivität vermerkt.',
      es: 'Cuando se realiza un pedido, se anota en la actividad del pedido.',
      fr: 'Lorsqu’une commande est passée, elle est notée dans l’activité de la commande.',
    },
    {
      en: 'Order received.',
      de: 'Bestellung eingegangen.',
      es: 'Pedido recibido.',
      fr: 'Commande reçue.',
    },
  ),
  noteFlow(
    'default_payment_received',
    'payment.captured',
    {
      en: 'Payment received',
      de: 'Zahlung eingegangen',
      es: 'Pago recibido',
      fr: 'Paiement reçu',
    },
    {
      en: 'When a payment is captured, note it in the order activity.',
      de: 'Wenn eine Zahlung erfasst wird, wird dies in der Bestellaktivität vermerkt.',
      es: 'Cuando se captura un pago, se anota en la actividad del pedido.',
      fr: 'Lorsqu’un paiement est encaissé, il est noté dans l’activité de la commande.',
    },
    {
      en: 'Payment received.',
      de: 'Zahlung eingegangen.',
      es: 'Pago recibido.',
      fr: 'Paiement reçu.',
    },
  ),
];
