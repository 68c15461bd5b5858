import {
  ANYWHERE,
  choiceParam,
  condition,
  EQUALITY,
  filterRuleParams,
  IN_CART,
  IN_CART_OR_LINE_ITEM,
  IN_LINE_ITEM_OR_CART,
  labels,
  ORDERING,
  operatorParam,
  param,
} from './builders.ts';
import type { SourceGroup } from './source.ts';

/** Conditions of the cart as a whole and its chosen methods (group `cart`), in the reference's order. */
export const CART: SourceGroup = {
  group: 'cart',
  conditions: [
    condition(
      'cartLineItemGoodsTotal',
      IN_LINE_ITEM_OR_CART,
      filterRuleParams(param('count', 'int')),
      labels('Number of items', 'Anzahl der Positionen', 'Número de artículos', 'Nombre d’articles'),
    ),
    condition(
      'cartGoodsCount',
      IN_CART_OR_LINE_ITEM,
      filterRuleParams(param('count', 'int')),
      labels(
        'Number of goods in cart',
        'Anzahl der Waren im Warenkorb',
        'Número de productos en el carrito',
        'Nombre de marchandises dans le panier',
      ),
    ),
    condition(
      'cartTotalPurchasePrice',
      IN_CART,
      [operatorParam(ORDERING), choiceParam('type', ['gross', 'net']), param('amount', 'float')],
      labels(
        'Cart total purchase price',
        'Gesamteinkaufspreis des Warenkorbs',
        'Precio de compra total del carrito',
        'Prix d’achat total du panier',
      ),
    ),
    condition(
      'cartWeight',
      IN_CART,
      [param('weight', 'float'), operatorParam(ORDERING)],
      labels('Cart weight', 'Gewicht des Warenkorbs', 'Peso del carrito', 'Poids du panier'),
    ),
    condition(
      'cartVolume',
      IN_CART,
      [param('volume', 'float'), operatorParam(ORDERING)],
      labels('Cart volume', 'Volumen des Warenkorbs', 'Volumen del carrito', 'Volume du panier'),
    ),
    condition(
      'cartCartAmount',
      IN_CART,
      [param('amount', 'float'), operatorParam(ORDERING)],
      labels('Cart amount', 'Warenkorbwert', 'Importe del carrito', 'Montant du panier'),
    ),
    condition(
      'cartPositionPrice',
      IN_CART,
      [param('amount', 'float'), operatorParam(ORDERING)],
      labels(
        'Cart line items total',
        'Summe der Warenkorbpositionen',
        'Total de las líneas del carrito',
        'Total des lignes du panier',
      ),
    ),
    condition(
      'cartShippingCost',
      IN_CART,
      [param('cartShippingCost', 'float'), operatorParam(ORDERING)],
      labels('Shipping costs', 'Versandkosten', 'Gastos de envío', 'Frais de livraison'),
    ),
    condition(
      'paymentMethod',
      ANYWHERE,
      [param('paymentMethodIds', 'uuid[]'), operatorParam(EQUALITY)],
      labels('Payment method', 'Zahlungsart', 'Método de pago', 'Mode de paiement'),
    ),
    condition(
      'shippingMethod',
      ANYWHERE,
      [param('shippingMethodIds', 'uuid[]'), operatorParam(EQUALITY)],
      labels('Shipping method', 'Versandart', 'Método de envío', 'Mode de livraison'),
    ),
  ],
};
