import {
  condition,
  EQUALITY,
  filterRuleParams,
  IN_CART,
  IN_LINE_ITEM_OR_CART,
  labels,
  ORDERING,
  operatorParam,
  param,
} from './builders.ts';
import type { SourceGroup } from './source.ts';

/** Conditions of the promotions in the cart (group `promotion`), in the reference's order. */
export const PROMOTION: SourceGroup = {
  group: 'promotion',
  conditions: [
    condition(
      'promotionCodeOfType',
      IN_LINE_ITEM_OR_CART,
      [param('promotionCodeType', 'string'), operatorParam(EQUALITY)],
      labels(
        'Promotion code of type',
        'Aktionscode vom Typ',
        'Código promocional del tipo',
        'Code promotionnel du type',
      ),
    ),
    condition(
      'promotionLineItem',
      IN_LINE_ITEM_OR_CART,
      [param('identifiers', 'uuid[]'), operatorParam(EQUALITY)],
      labels('Promotion line item', 'Aktionsposition', 'Línea de promoción', 'Ligne de promotion'),
    ),
    condition(
      'promotionValue',
      IN_CART,
      filterRuleParams(param('amount', 'float')),
      labels('Promotion value', 'Aktionswert', 'Valor de la promoción', 'Valeur de la promotion'),
    ),
    condition(
      'promotionsInCartCount',
      IN_CART,
      [param('count', 'int'), operatorParam(ORDERING)],
      labels(
        'Number of promotions in cart',
        'Anzahl der Aktionen im Warenkorb',
        'Número de promociones en el carrito',
        'Nombre de promotions dans le panier',
      ),
    ),
  ],
};
