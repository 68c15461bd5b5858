import {
  condition,
  customFieldParams,
  EQUALITY,
  EQUALITY_OR_EMPTY,
  IN_CHECKOUT,
  IN_FLOW,
  IN_ORDER,
  labels,
  operatorParam,
  optional,
  param,
} from './builders.ts';
import type { SourceGroup } from './source.ts';

/** Conditions of the order a flow runs for (group `order`), in the reference's order. */
export const ORDER: SourceGroup = {
  group: 'order',
  conditions: [
    condition(
      'orderAffiliateCode',
      IN_FLOW,
      [operatorParam(EQUALITY_OR_EMPTY), param('affiliateCode', 'string')],
      labels(
        'Order affiliate code',
        'Partnercode der Bestellung',
        'Código de afiliado del pedido',
        'Code d’affiliation de la commande',
      ),
    ),
    condition(
      'orderCampaignCode',
      IN_FLOW,
      [operatorParam(EQUALITY_OR_EMPTY), param('campaignCode', 'string')],
      labels(
        'Order campaign code',
        'Kampagnencode der Bestellung',
        'Código de campaña del pedido',
        'Code de campagne de la commande',
      ),
    ),
    condition(
      'adminSalesChannelSource',
      IN_CHECKOUT,
      [optional(param('hasAdminSalesChannelSource', 'bool'))],
      labels(
        'Created in the admin channel',
        'Im Admin-Verkaufskanal erstellt',
        'Creado en el canal de administración',
        'Créé dans le canal d’administration',
      ),
    ),
    condition(
      'orderCreatedByAdmin',
      IN_ORDER,
      [param('shouldOrderBeCreatedByAdmin', 'bool')],
      labels(
        'Order created by admin',
        'Bestellung vom Admin angelegt',
        'Pedido creado por el administrador',
        'Commande créée par l’administrateur',
      ),
    ),
    condition(
      'orderCustomField',
      IN_ORDER,
      [...customFieldParams()],
      labels(
        'Order custom field',
        'Zusatzfeld der Bestellung',
        'Campo personalizado del pedido',
        'Champ personnalisé de la commande',
      ),
    ),
    condition(
      'orderDeliveryStatus',
      IN_ORDER,
      [operatorParam(EQUALITY), param('stateIds', 'uuid[]')],
      labels('Delivery status', 'Lieferstatus', 'Estado de la entrega', 'Statut de livraison'),
    ),
    condition(
      'orderDocumentType',
      IN_ORDER,
      [operatorParam(EQUALITY_OR_EMPTY), param('documentIds', 'uuid[]')],
      labels(
        'Document type created',
        'Erstellter Dokumenttyp',
        'Tipo de documento creado',
        'Type de document créé',
      ),
    ),
    condition(
      'orderDocumentTypeSent',
      IN_ORDER,
      [operatorParam(EQUALITY_OR_EMPTY), param('documentIds', 'uuid[]')],
      labels(
        'Document type sent',
        'Versendeter Dokumenttyp',
        'Tipo de documento enviado',
        'Type de document envoyé',
      ),
    ),
    condition(
      'orderStatus',
      IN_ORDER,
      [operatorParam(EQUALITY), param('stateIds', 'uuid[]')],
      labels('Order status', 'Bestellstatus', 'Estado del pedido', 'Statut de la commande'),
    ),
    condition(
      'orderTag',
      IN_ORDER,
      [operatorParam(EQUALITY_OR_EMPTY), param('identifiers', 'uuid[]')],
      labels('Order tag', 'Bestell-Tag', 'Etiqueta del pedido', 'Étiquette de la commande'),
    ),
    condition(
      'orderTrackingCode',
      IN_ORDER,
      [param('isSet', 'bool')],
      labels(
        'Order has tracking code',
        'Bestellung hat Sendungsnummer',
        'El pedido tiene código de seguimiento',
        'La commande a un numéro de suivi',
      ),
    ),
    condition(
      'orderTransactionStatus',
      IN_ORDER,
      [operatorParam(EQUALITY), param('stateIds', 'uuid[]')],
      labels('Payment status', 'Zahlungsstatus', 'Estado del pago', 'Statut du paiement'),
    ),
  ],
};
