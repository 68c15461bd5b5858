import {
  condition,
  customFieldParams,
  DATE_ORDERING_OR_EMPTY,
  EQUALITY,
  EQUALITY_OR_EMPTY,
  IN_CHECKOUT,
  labelled,
  labels,
  ORDERING,
  ORDERING_OR_EMPTY,
  operatorParam,
  param,
} from './builders.ts';
import type { SourceGroup } from './source.ts';

/** The address conditions' `stateIds`: regions of a country (ISO 3166-2 subdivision codes). */
const REGIONS = labelled(
  param('stateIds', 'uuid[]'),
  labels('Regions', 'Bundesländer/Regionen', 'Provincias/regiones', 'Régions'),
  'countryState',
);

/** Conditions of the customer and the selected addresses (group `customer`), in the reference's order. */
export const CUSTOMER: SourceGroup = {
  group: 'customer',
  conditions: [
    condition(
      'customerBillingCity',
      IN_CHECKOUT,
      [operatorParam(EQUALITY_OR_EMPTY), param('cityName', 'string')],
      labels('Billing city', 'Rechnungsort', 'Ciudad de facturación', 'Ville de facturation'),
    ),
    condition(
      'customerBillingStreet',
      IN_CHECKOUT,
      [operatorParam(EQUALITY_OR_EMPTY), param('streetName', 'string')],
      labels('Billing street', 'Rechnungsstraße', 'Calle de facturación', 'Rue de facturation'),
    ),
    condition(
      'customerShippingCity',
      IN_CHECKOUT,
      [operatorParam(EQUALITY_OR_EMPTY), param('cityName', 'string')],
      labels('Shipping city', 'Lieferort', 'Ciudad de envío', 'Ville de livraison'),
    ),
    condition(
      'customerShippingStreet',
      IN_CHECKOUT,
      [operatorParam(EQUALITY_OR_EMPTY), param('streetName', 'string')],
      labels('Shipping street', 'Lieferstraße', 'Calle de envío', 'Rue de livraison'),
    ),
    condition(
      'customerLastName',
      IN_CHECKOUT,
      [operatorParam(EQUALITY_OR_EMPTY), param('lastName', 'string')],
      labels('Customer last name', 'Nachname des Kunden', 'Apellido del cliente', 'Nom de famille du client'),
    ),
    condition(
      'customerBillingCountry',
      IN_CHECKOUT,
      [operatorParam(EQUALITY_OR_EMPTY), param('countryIds', 'uuid[]')],
      labels('Billing country', 'Rechnungsland', 'País de facturación', 'Pays de facturation'),
    ),
    condition(
      'customerShippingCountry',
      IN_CHECKOUT,
      [operatorParam(EQUALITY_OR_EMPTY), param('countryIds', 'uuid[]')],
      labels('Shipping country', 'Lieferland', 'País de envío', 'Pays de livraison'),
    ),
    condition(
      'customerBillingState',
      IN_CHECKOUT,
      [operatorParam(EQUALITY_OR_EMPTY), REGIONS],
      labels('Billing state', 'Rechnungsbundesland', 'Provincia de facturación', 'Région de facturation'),
    ),
    condition(
      'customerShippingState',
      IN_CHECKOUT,
      [operatorParam(EQUALITY_OR_EMPTY), REGIONS],
      labels('Shipping state', 'Lieferbundesland', 'Provincia de envío', 'Région de livraison'),
    ),
    condition(
      'customerBillingZipCode',
      IN_CHECKOUT,
      [operatorParam(ORDERING_OR_EMPTY), param('zipCodes', 'string[]')],
      labels(
        'Billing postal code',
        'Rechnungspostleitzahl',
        'Código postal de facturación',
        'Code postal de facturation',
      ),
    ),
    condition(
      'customerShippingZipCode',
      IN_CHECKOUT,
      [operatorParam(ORDERING_OR_EMPTY), param('zipCodes', 'string[]')],
      labels(
        'Shipping postal code',
        'Lieferpostleitzahl',
        'Código postal de envío',
        'Code postal de livraison',
      ),
    ),
    condition(
      'customerAffiliateCode',
      IN_CHECKOUT,
      [operatorParam(EQUALITY_OR_EMPTY), param('affiliateCode', 'string')],
      labels(
        'Customer affiliate code',
        'Partnercode des Kunden',
        'Código de afiliado del cliente',
        'Code d’affiliation du client',
      ),
    ),
    condition(
      'customerCampaignCode',
      IN_CHECKOUT,
      [operatorParam(EQUALITY_OR_EMPTY), param('campaignCode', 'string')],
      labels(
        'Customer campaign code',
        'Kampagnencode des Kunden',
        'Código de campaña del cliente',
        'Code de campagne du client',
      ),
    ),
    condition(
      'customerAge',
      IN_CHECKOUT,
      [operatorParam(ORDERING_OR_EMPTY), param('age', 'float')],
      labels('Customer age', 'Alter des Kunden', 'Edad del cliente', 'Âge du client'),
    ),
    condition(
      'customerBirthday',
      IN_CHECKOUT,
      [
        operatorParam(DATE_ORDERING_OR_EMPTY),
        param('birthday', 'dateOrRange', 'date string (Y-m-d) | {from,to} for between'),
      ],
      labels(
        'Customer birthday',
        'Geburtstag des Kunden',
        'Cumpleaños del cliente',
        'Anniversaire du client',
      ),
    ),
    condition(
      'customerCreatedByAdmin',
      IN_CHECKOUT,
      [param('shouldCustomerBeCreatedByAdmin', 'bool')],
      labels(
        'Customer created by admin',
        'Kunde vom Admin angelegt',
        'Cliente creado por el administrador',
        'Client créé par l’administrateur',
      ),
    ),
    condition(
      'customerCustomField',
      IN_CHECKOUT,
      [...customFieldParams()],
      labels(
        'Customer custom field',
        'Zusatzfeld des Kunden',
        'Campo personalizado del cliente',
        'Champ personnalisé du client',
      ),
    ),
    condition(
      'customerCustomerGroup',
      IN_CHECKOUT,
      [param('customerGroupIds', 'uuid[]'), operatorParam(EQUALITY)],
      labels('Customer group', 'Kundengruppe', 'Grupo de clientes', 'Groupe de clients'),
    ),
    condition(
      'customerRequestedGroup',
      IN_CHECKOUT,
      [operatorParam(EQUALITY_OR_EMPTY), param('customerGroupIds', 'uuid[]')],
      labels(
        'Requested customer group',
        'Angefragte Kundengruppe',
        'Grupo de clientes solicitado',
        'Groupe de clients demandé',
      ),
    ),
    condition(
      'customerLoggedIn',
      IN_CHECKOUT,
      [param('isLoggedIn', 'bool')],
      labels('Customer logged in', 'Kunde angemeldet', 'Cliente con sesión iniciada', 'Client connecté'),
    ),
    condition(
      'customerCustomerNumber',
      IN_CHECKOUT,
      [param('numbers', 'string[]'), operatorParam(EQUALITY)],
      labels('Customer number', 'Kundennummer', 'Número de cliente', 'Numéro de client'),
    ),
    condition(
      'customerSalutation',
      IN_CHECKOUT,
      [operatorParam(EQUALITY_OR_EMPTY), param('salutationIds', 'uuid[]')],
      labels('Customer salutation', 'Anrede des Kunden', 'Tratamiento del cliente', 'Civilité du client'),
    ),
    condition(
      'customerTag',
      IN_CHECKOUT,
      [operatorParam(EQUALITY_OR_EMPTY), param('identifiers', 'uuid[]')],
      labels('Customer tag', 'Kunden-Tag', 'Etiqueta del cliente', 'Étiquette du client'),
    ),
    condition(
      'customerDaysSinceFirstLogin',
      IN_CHECKOUT,
      [operatorParam(ORDERING_OR_EMPTY), param('daysPassed', 'float')],
      labels(
        'Days since first login',
        'Tage seit der ersten Anmeldung',
        'Días desde el primer inicio de sesión',
        'Jours depuis la première connexion',
      ),
    ),
    condition(
      'customerDaysSinceLastLogin',
      IN_CHECKOUT,
      [operatorParam(ORDERING_OR_EMPTY), param('daysPassed', 'float')],
      labels(
        'Days since last login',
        'Tage seit der letzten Anmeldung',
        'Días desde el último inicio de sesión',
        'Jours depuis la dernière connexion',
      ),
    ),
    condition(
      'customerDaysSinceLastOrder',
      IN_CHECKOUT,
      [operatorParam(ORDERING_OR_EMPTY), param('daysPassed', 'float')],
      labels(
        'Days since last order',
        'Tage seit der letzten Bestellung',
        'Días desde el último pedido',
        'Jours depuis la dernière commande',
      ),
    ),
    condition(
      'customerDifferentAddresses',
      IN_CHECKOUT,
      [param('isDifferent', 'bool')],
      labels(
        'Different billing and shipping address',
        'Abweichende Rechnungs- und Lieferadresse',
        'Direcciones de facturación y envío distintas',
        'Adresses de facturation et de livraison différentes',
      ),
    ),
    condition(
      'customerEmail',
      IN_CHECKOUT,
      [operatorParam(EQUALITY), param('email', 'string')],
      labels(
        'Customer email',
        'E-Mail-Adresse des Kunden',
        'Correo electrónico del cliente',
        'E-mail du client',
      ),
    ),
    condition(
      'customerIsActive',
      IN_CHECKOUT,
      [param('isActive', 'bool')],
      labels('Customer is active', 'Kunde ist aktiv', 'El cliente está activo', 'Le client est actif'),
    ),
    condition(
      'customerIsCompany',
      IN_CHECKOUT,
      [param('isCompany', 'bool')],
      labels(
        'Customer is a company',
        'Kunde ist ein Unternehmen',
        'El cliente es una empresa',
        'Le client est une entreprise',
      ),
    ),
    condition(
      'customerIsGuest',
      IN_CHECKOUT,
      [param('isGuest', 'bool')],
      labels('Guest customer', 'Gastkunde', 'Cliente invitado', 'Client invité'),
    ),
    condition(
      'customerIsNewsletterRecipient',
      IN_CHECKOUT,
      [param('isNewsletterRecipient', 'bool')],
      labels(
        'Newsletter recipient',
        'Newsletter-Empfänger',
        'Suscriptor del boletín',
        'Abonné à la newsletter',
      ),
    ),
    condition(
      'numberOfReviews',
      IN_CHECKOUT,
      [param('count', 'int'), operatorParam(ORDERING)],
      labels('Number of reviews', 'Anzahl der Bewertungen', 'Número de reseñas', 'Nombre d’avis'),
    ),
    condition(
      'customerOrderCount',
      IN_CHECKOUT,
      [param('count', 'int'), operatorParam(ORDERING)],
      labels('Number of orders', 'Anzahl der Bestellungen', 'Número de pedidos', 'Nombre de commandes'),
    ),
    condition(
      'customerOrderTotalAmount',
      IN_CHECKOUT,
      [param('amount', 'float'), operatorParam(ORDERING)],
      labels(
        'Total order amount',
        'Gesamtbestellwert',
        'Importe total de pedidos',
        'Montant total des commandes',
      ),
    ),
  ],
};
