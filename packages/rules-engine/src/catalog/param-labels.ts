import type { Labels, ParamReference } from './model.ts';

// What every condition parameter is called in the four interface languages, keyed by its name (the
// admin's rule builder labels each parameter input with it). A name several conditions share gets
// a label that fits all of them; a condition where it means something narrower overrides it (see
// `builders.ts`, `labelled`). `param` takes only names of this table, so a parameter without labels
// does not compile.

type ParamLabels = Readonly<Record<string, Labels>>;

export const PARAM_LABELS = {
  operator: { en: 'Operator', de: 'Operator', es: 'Operador', fr: 'Opérateur' },
  manufacturerIds: { en: 'Manufacturers', de: 'Hersteller', es: 'Fabricantes', fr: 'Fabricants' },
  stock: { en: 'Stock', de: 'Lagerbestand', es: 'Existencias', fr: 'Stock' },
  clearanceSale: { en: 'Clearance sale', de: 'Abverkauf', es: 'Liquidación', fr: 'Déstockage' },
  lineItemCreationDate: {
    en: 'Creation date',
    de: 'Erstellungsdatum',
    es: 'Fecha de creación',
    fr: 'Date de création',
  },
  renderedField: {
    en: 'Field definition',
    de: 'Felddefinition',
    es: 'Definición del campo',
    fr: 'Définition du champ',
  },
  selectedField: {
    en: 'Custom field',
    de: 'Zusatzfeld',
    es: 'Campo personalizado',
    fr: 'Champ personnalisé',
  },
  selectedFieldSet: {
    en: 'Custom field set',
    de: 'Zusatzfeld-Set',
    es: 'Conjunto de campos personalizados',
    fr: 'Ensemble de champs personnalisés',
  },
  renderedFieldValue: { en: 'Field value', de: 'Feldwert', es: 'Valor del campo', fr: 'Valeur du champ' },
  // Prices, dimensions, weights, ratios and totals: what the condition's own label names.
  amount: { en: 'Value', de: 'Wert', es: 'Valor', fr: 'Valeur' },
  categoryIds: { en: 'Categories', de: 'Kategorien', es: 'Categorías', fr: 'Catégories' },
  streamIds: {
    en: 'Dynamic product groups',
    de: 'Dynamische Produktgruppen',
    es: 'Grupos dinámicos de productos',
    fr: 'Groupes dynamiques de produits',
  },
  isNew: { en: 'Is new', de: 'Ist neu', es: 'Es nuevo', fr: 'Est nouveau' },
  isPromoted: { en: 'Is promoted', de: 'Wird hervorgehoben', es: 'Está destacado', fr: 'Est mis en avant' },
  // Properties, property and variant values, tags, line items, promotions: the condition's label says which.
  identifiers: { en: 'Identifiers', de: 'Kennungen', es: 'Identificadores', fr: 'Identifiants' },
  type: { en: 'Price type', de: 'Preistyp', es: 'Tipo de precio', fr: 'Type de prix' },
  lineItemReleaseDate: {
    en: 'Release date',
    de: 'Erscheinungsdatum',
    es: 'Fecha de lanzamiento',
    fr: 'Date de sortie',
  },
  taxIds: { en: 'Tax classes', de: 'Steuerklassen', es: 'Clases de impuestos', fr: 'Classes de taxe' },
  productState: {
    en: 'Product state',
    de: 'Produktstatus',
    es: 'Estado del producto',
    fr: 'État du produit',
  },
  productType: { en: 'Product type', de: 'Produkttyp', es: 'Tipo de producto', fr: 'Type de produit' },
  quantity: { en: 'Quantity', de: 'Menge', es: 'Cantidad', fr: 'Quantité' },
  id: { en: 'Item ID', de: 'Positions-ID', es: 'ID del artículo', fr: 'ID de l’article' },
  lineItemType: { en: 'Item type', de: 'Positionstyp', es: 'Tipo de artículo', fr: 'Type d’article' },
  count: { en: 'Count', de: 'Anzahl', es: 'Número', fr: 'Nombre' },
  filter: { en: 'Filter', de: 'Filter', es: 'Filtro', fr: 'Filtre' },
  container: { en: 'Conditions', de: 'Bedingungen', es: 'Condiciones', fr: 'Conditions' },
  allowed: { en: 'Allowed', de: 'Erlaubt', es: 'Permitido', fr: 'Autorisé' },
  weight: { en: 'Weight', de: 'Gewicht', es: 'Peso', fr: 'Poids' },
  volume: { en: 'Volume', de: 'Volumen', es: 'Volumen', fr: 'Volume' },
  cartShippingCost: {
    en: 'Shipping cost',
    de: 'Versandkosten',
    es: 'Gastos de envío',
    fr: 'Frais de livraison',
  },
  taxDisplay: {
    en: 'Tax display',
    de: 'Steueranzeige',
    es: 'Visualización de impuestos',
    fr: 'Affichage des taxes',
  },
  paymentMethodIds: {
    en: 'Payment methods',
    de: 'Zahlungsarten',
    es: 'Métodos de pago',
    fr: 'Moyens de paiement',
  },
  shippingMethodIds: {
    en: 'Shipping methods',
    de: 'Versandarten',
    es: 'Métodos de envío',
    fr: 'Modes de livraison',
  },
  affiliateCode: {
    en: 'Affiliate code',
    de: 'Partnercode',
    es: 'Código de afiliado',
    fr: 'Code d’affiliation',
  },
  campaignCode: { en: 'Campaign code', de: 'Kampagnencode', es: 'Código de campaña', fr: 'Code de campagne' },
  hasAdminSalesChannelSource: {
    en: 'Created in the admin',
    de: 'Im Admin erstellt',
    es: 'Creado en la administración',
    fr: 'Créé dans l’administration',
  },
  groupId: { en: 'Group', de: 'Gruppe', es: 'Grupo', fr: 'Groupe' },
  packagerKey: { en: 'Packager', de: 'Paketierer', es: 'Empaquetador', fr: 'Empaqueteur' },
  value: { en: 'Value', de: 'Wert', es: 'Valor', fr: 'Valeur' },
  sorterKey: { en: 'Sorting', de: 'Sortierung', es: 'Ordenación', fr: 'Tri' },
  rules: { en: 'Conditions', de: 'Bedingungen', es: 'Condiciones', fr: 'Conditions' },
  cityName: { en: 'City', de: 'Ort', es: 'Ciudad', fr: 'Ville' },
  streetName: { en: 'Street', de: 'Straße', es: 'Calle', fr: 'Rue' },
  lastName: { en: 'Last name', de: 'Nachname', es: 'Apellido', fr: 'Nom de famille' },
  countryIds: { en: 'Countries', de: 'Länder', es: 'Países', fr: 'Pays' },
  // Order, delivery and payment states; the address conditions override it (regions of a country).
  stateIds: { en: 'States', de: 'Status', es: 'Estados', fr: 'États' },
  zipCodes: { en: 'Postal codes', de: 'Postleitzahlen', es: 'Códigos postales', fr: 'Codes postaux' },
  age: { en: 'Age', de: 'Alter', es: 'Edad', fr: 'Âge' },
  birthday: {
    en: 'Date of birth',
    de: 'Geburtsdatum',
    es: 'Fecha de nacimiento',
    fr: 'Date de naissance',
  },
  shouldCustomerBeCreatedByAdmin: {
    en: 'Created by an admin',
    de: 'Von einem Admin angelegt',
    es: 'Creado por un administrador',
    fr: 'Créé par un administrateur',
  },
  customerGroupIds: {
    en: 'Customer groups',
    de: 'Kundengruppen',
    es: 'Grupos de clientes',
    fr: 'Groupes de clients',
  },
  isLoggedIn: { en: 'Logged in', de: 'Angemeldet', es: 'Con sesión iniciada', fr: 'Connecté' },
  numbers: {
    en: 'Customer numbers',
    de: 'Kundennummern',
    es: 'Números de cliente',
    fr: 'Numéros de client',
  },
  salutationIds: { en: 'Salutations', de: 'Anreden', es: 'Tratamientos', fr: 'Civilités' },
  daysPassed: { en: 'Days passed', de: 'Vergangene Tage', es: 'Días transcurridos', fr: 'Jours écoulés' },
  isDifferent: {
    en: 'Addresses differ',
    de: 'Adressen unterschiedlich',
    es: 'Direcciones distintas',
    fr: 'Adresses différentes',
  },
  email: { en: 'Email', de: 'E-Mail', es: 'Correo electrónico', fr: 'E-mail' },
  isActive: { en: 'Active', de: 'Aktiv', es: 'Activo', fr: 'Actif' },
  isCompany: { en: 'Company', de: 'Firma', es: 'Empresa', fr: 'Entreprise' },
  isGuest: { en: 'Guest', de: 'Gast', es: 'Invitado', fr: 'Invité' },
  isNewsletterRecipient: {
    en: 'Newsletter recipient',
    de: 'Newsletter-Empfänger',
    es: 'Suscriptor del boletín',
    fr: 'Abonné à la newsletter',
  },
  promotionCodeType: { en: 'Code type', de: 'Codetyp', es: 'Tipo de código', fr: 'Type de code' },
  shouldOrderBeCreatedByAdmin: {
    en: 'Created by an admin',
    de: 'Von einem Admin angelegt',
    es: 'Creado por un administrador',
    fr: 'Créé par un administrateur',
  },
  documentIds: {
    en: 'Document types',
    de: 'Dokumenttypen',
    es: 'Tipos de documento',
    fr: 'Types de document',
  },
  isSet: { en: 'Is set', de: 'Ist gesetzt', es: 'Está definido', fr: 'Est défini' },
  fromDate: { en: 'Start date', de: 'Startdatum', es: 'Fecha de inicio', fr: 'Date de début' },
  toDate: { en: 'End date', de: 'Enddatum', es: 'Fecha de fin', fr: 'Date de fin' },
  useTime: { en: 'Use time', de: 'Uhrzeit verwenden', es: 'Usar hora', fr: 'Utiliser l’heure' },
  timezone: { en: 'Time zone', de: 'Zeitzone', es: 'Zona horaria', fr: 'Fuseau horaire' },
  fromTime: { en: 'Start time', de: 'Startzeit', es: 'Hora de inicio', fr: 'Heure de début' },
  toTime: { en: 'End time', de: 'Endzeit', es: 'Hora de fin', fr: 'Heure de fin' },
  dayOfWeek: {
    en: 'Day of the week',
    de: 'Wochentag',
    es: 'Día de la semana',
    fr: 'Jour de la semaine',
  },
  salesChannelIds: {
    en: 'Sales channels',
    de: 'Verkaufskanäle',
    es: 'Canales de venta',
    fr: 'Canaux de vente',
  },
  script: { en: 'Script', de: 'Skript', es: 'Script', fr: 'Script' },
  values: { en: 'Values', de: 'Werte', es: 'Valores', fr: 'Valeurs' },
  constraints: { en: 'Constraints', de: 'Einschränkungen', es: 'Restricciones', fr: 'Contraintes' },
  identifier: { en: 'Identifier', de: 'Kennung', es: 'Identificador', fr: 'Identifiant' },
  lastModified: {
    en: 'Last modified',
    de: 'Zuletzt geändert',
    es: 'Última modificación',
    fr: 'Dernière modification',
  },
  match: { en: 'Match', de: 'Trifft zu', es: 'Coincide', fr: 'Correspond' },
  currencyIds: { en: 'Currencies', de: 'Währungen', es: 'Monedas', fr: 'Devises' },
  languageIds: { en: 'Languages', de: 'Sprachen', es: 'Idiomas', fr: 'Langues' },
  minimumShouldMatch: {
    en: 'Minimum matches',
    de: 'Mindestanzahl Treffer',
    es: 'Coincidencias mínimas',
    fr: 'Correspondances minimales',
  },
  types: { en: 'Item types', de: 'Positionstypen', es: 'Tipos de artículo', fr: 'Types d’article' },
} as const satisfies ParamLabels;

/** A parameter name the catalog knows how to label. */
export type ParamName = keyof typeof PARAM_LABELS;

/**
 * What an id parameter names, wherever it occurs (the address conditions' `stateIds` are regions of
 * a country, the order conditions' state names are not: they say so themselves, see `labelled`).
 */
export const PARAM_REFERENCES: Readonly<Partial<Record<ParamName, ParamReference>>> = {
  categoryIds: 'category',
  taxIds: 'taxClass',
  paymentMethodIds: 'paymentMethod',
  shippingMethodIds: 'shippingMethod',
  countryIds: 'country',
  customerGroupIds: 'customerGroup',
  salesChannelIds: 'salesChannel',
  currencyIds: 'currency',
  languageIds: 'language',
};
