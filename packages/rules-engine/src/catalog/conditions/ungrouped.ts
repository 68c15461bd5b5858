import {
  ANYWHERE,
  condition,
  container,
  IN_CART,
  IN_CART_OR_LINE_ITEM,
  IN_LINE_ITEM_OR_CART,
  labels,
  ORDERING,
  operatorParam,
  optional,
  param,
} from './builders.ts';
import type { SourceGroup } from './source.ts';

/** The children of a container that takes any number of them. */
const CHILDREN = optional(param('rules', 'rules', 'list<Rule> (children)'));

/**
 * Conditions the reference puts in no group (`group: null`): the containers, the line-item wrapper,
 * a deprecated stock condition and the reference's internal ones, in the reference's order.
 */
export const UNGROUPED: SourceGroup = {
  group: null,
  conditions: [
    condition(
      'cartLineItemStock',
      IN_LINE_ITEM_OR_CART,
      [operatorParam(ORDERING), param('stock', 'int')],
      labels(
        'Item available stock',
        'Verfügbarer Bestand der Position',
        'Existencias disponibles del artículo',
        'Stock disponible de l’article',
      ),
    ),
    condition(
      'cartLineItemWrapper',
      IN_LINE_ITEM_OR_CART,
      [param('container', 'rules', 'Container (rule container)')],
      labels('Item wrapper', 'Positionsrahmen', 'Envoltorio de artículo', 'Enveloppe d’article'),
    ),
    condition(
      'cartLineItemInGroup',
      IN_CART,
      [
        param('groupId', 'string'),
        param('packagerKey', 'string'),
        param('value', 'float'),
        param('sorterKey', 'string'),
        param('rules', 'rules', 'RuleCollection (container)'),
      ],
      labels('Item in group', 'Position in Gruppe', 'Artículo en el grupo', 'Article dans le groupe'),
    ),
    condition(
      'scriptRule',
      ANYWHERE,
      [
        param('script', 'string', 'string (twig)'),
        param('values', 'object', 'object (app script condition config values)'),
        optional(param('constraints', 'object', 'map (from app config)')),
        optional(param('identifier', 'string')),
        optional(param('lastModified', 'datetime')),
      ],
      labels('Script condition', 'Skriptbedingung', 'Condición por script', 'Condition scriptée'),
    ),
    condition(
      'simple',
      ANYWHERE,
      [param('match', 'bool')],
      labels(
        'Simple condition (internal)',
        'Einfache Bedingung (intern)',
        'Condición simple (interna)',
        'Condition simple (interne)',
      ),
    ),
    condition(
      'unknown_condition',
      ANYWHERE,
      [],
      labels('Unknown condition', 'Unbekannte Bedingung', 'Condición desconocida', 'Condition inconnue'),
    ),
    container(
      'andContainer',
      ANYWHERE,
      [CHILDREN],
      labels('All of (AND)', 'Alle (UND)', 'Todas (Y)', 'Toutes (ET)'),
    ),
    container(
      'orContainer',
      ANYWHERE,
      [CHILDREN],
      labels('Any of (OR)', 'Mindestens eine (ODER)', 'Alguna (O)', 'Au moins une (OU)'),
    ),
    container(
      'notContainer',
      ANYWHERE,
      [param('rules', 'rules', 'list<Rule> (exactly one child)')],
      labels('Not (NOT)', 'Nicht (NICHT)', 'Negación (NO)', 'Négation (NON)'),
    ),
    container(
      'xorContainer',
      ANYWHERE,
      [CHILDREN],
      labels(
        'Exactly one of (XOR)',
        'Genau eine (XODER)',
        'Exactamente una (O exclusivo)',
        'Exactement une (OU exclusif)',
      ),
    ),
    container(
      'allLineItemsContainer',
      IN_CART_OR_LINE_ITEM,
      [
        CHILDREN,
        optional(param('minimumShouldMatch', 'int')),
        optional(param('types', 'string[]', 'list<string> (line item types)')),
      ],
      labels('All line items', 'Alle Positionen', 'Todas las líneas', 'Toutes les lignes'),
    ),
  ],
};
