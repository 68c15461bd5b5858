import type { ActionConfigKey, ActionDefinition } from './model.ts';

const TAGS: readonly ActionConfigKey[] = [
  { name: 'tags', alias: 'tagIds', type: 'array<uuid>', required: true },
];
const CODES: readonly ActionConfigKey[] = [
  { name: 'affiliateCode', type: 'object {value: string, upsert: bool}', required: false },
  { name: 'campaignCode', type: 'object {value: string, upsert: bool}', required: false },
];
const CUSTOM_FIELD: readonly ActionConfigKey[] = [
  { name: 'field', type: 'string', required: true },
  { name: 'value', type: 'json', required: true },
];
const SOURCE_CODES = ['affiliateCode', 'campaignCode'];
const SOURCE_CUSTOM_FIELD = ['entity', 'customFieldId', 'customFieldValue', 'option', 'customFieldSetId'];

/** The 16 reference flow actions followed by Cartwright's `note`, `ai_proposal` and `app_action`. */
export const ACTIONS: readonly ActionDefinition[] = [
  {
    name: 'action.add.customer.affiliate.and.campaign.code',
    origin: 'reference',
    configKeys: CODES,
    sourceConfigKeys: SOURCE_CODES,
    area: 'customers',
    labels: {
      en: 'Set customer affiliate and campaign code',
      de: 'Partner- und Kampagnencode des Kunden setzen',
      es: 'Asignar código de afiliado y de campaña al cliente',
      fr: 'Définir les codes d’affiliation et de campagne du client',
    },
  },
  {
    name: 'action.add.order.affiliate.and.campaign.code',
    origin: 'reference',
    configKeys: CODES,
    sourceConfigKeys: SOURCE_CODES,
    area: 'orders',
    labels: {
      en: 'Set order affiliate and campaign code',
      de: 'Partner- und Kampagnencode der Bestellung setzen',
      es: 'Asignar código de afiliado y de campaña al pedido',
      fr: 'Définir les codes d’affiliation et de campagne de la commande',
    },
  },
  {
    name: 'action.add.customer.tag',
    origin: 'reference',
    configKeys: TAGS,
    sourceConfigKeys: ['tagIds'],
    area: 'customers',
    labels: {
      en: 'Add customer tag',
      de: 'Kunden-Tag hinzufügen',
      es: 'Añadir etiqueta al cliente',
      fr: 'Ajouter une étiquette au client',
    },
  },
  {
    name: 'action.add.order.tag',
    origin: 'reference',
    configKeys: TAGS,
    sourceConfigKeys: ['tagIds'],
    area: 'orders',
    labels: {
      en: 'Add order tag',
      de: 'Bestell-Tag hinzufügen',
      es: 'Añadir etiqueta al pedido',
      fr: 'Ajouter une étiquette à la commande',
    },
  },
  {
    name: 'action.remove.customer.tag',
    origin: 'reference',
    configKeys: TAGS,
    sourceConfigKeys: ['tagIds'],
    area: 'customers',
    labels: {
      en: 'Remove customer tag',
      de: 'Kunden-Tag entfernen',
      es: 'Quitar etiqueta del cliente',
      fr: 'Retirer une étiquette du client',
    },
  },
  {
    name: 'action.remove.order.tag',
    origin: 'reference',
    configKeys: TAGS,
    sourceConfigKeys: ['tagIds'],
    area: 'orders',
    labels: {
      en: 'Remove order tag',
      de: 'Bestell-Tag entfernen',
      es: 'Quitar etiqueta del pedido',
      fr: 'Retirer une étiquette de la commande',
    },
  },
  {
    name: 'action.change.customer.group',
    origin: 'reference',
    configKeys: [
      {
        name: 'groupId',
        alias: 'customerGroupId',
        type: 'string',
        required: true,
        choices: ['consumer', 'business'],
      },
    ],
    sourceConfigKeys: ['customerGroupId'],
    area: 'customers',
    labels: {
      en: 'Change customer group',
      de: 'Kundengruppe ändern',
      es: 'Cambiar grupo de clientes',
      fr: 'Changer le groupe de clients',
    },
  },
  {
    name: 'action.change.customer.status',
    origin: 'reference',
    configKeys: [{ name: 'active', type: 'bool', required: true }],
    sourceConfigKeys: ['active'],
    area: 'customers',
    labels: {
      en: 'Change customer status',
      de: 'Kundenstatus ändern',
      es: 'Cambiar estado del cliente',
      fr: 'Changer le statut du client',
    },
  },
  {
    name: 'action.set.customer.custom.field',
    origin: 'reference',
    configKeys: CUSTOM_FIELD,
    sourceConfigKeys: SOURCE_CUSTOM_FIELD,
    area: 'customers',
    labels: {
      en: 'Set customer custom field',
      de: 'Zusatzfeld des Kunden setzen',
      es: 'Asignar campo personalizado del cliente',
      fr: 'Définir un champ personnalisé du client',
    },
  },
  {
    name: 'action.set.customer.group.custom.field',
    origin: 'reference',
    configKeys: CUSTOM_FIELD,
    sourceConfigKeys: SOURCE_CUSTOM_FIELD,
    area: 'customers',
    labels: {
      en: 'Set customer group custom field',
      de: 'Zusatzfeld der Kundengruppe setzen',
      es: 'Asignar campo personalizado del grupo de clientes',
      fr: 'Définir un champ personnalisé du groupe de clients',
    },
  },
  {
    name: 'action.set.order.custom.field',
    origin: 'reference',
    configKeys: CUSTOM_FIELD,
    sourceConfigKeys: SOURCE_CUSTOM_FIELD,
    area: 'orders',
    labels: {
      en: 'Set order custom field',
      de: 'Zusatzfeld der Bestellung setzen',
      es: 'Asignar campo personalizado del pedido',
      fr: 'Définir un champ personnalisé de la commande',
    },
  },
  {
    name: 'action.set.order.state',
    origin: 'reference',
    configKeys: [
      { name: 'kind', type: 'string', required: true, choices: ['order', 'payment', 'delivery'] },
      { name: 'state', type: 'string', required: true },
    ],
    sourceConfigKeys: ['order', 'order_delivery', 'order_transaction', 'force_transition'],
    area: 'orders',
    labels: {
      en: 'Set order state',
      de: 'Bestellstatus setzen',
      es: 'Cambiar estado del pedido',
      fr: 'Changer l’état de la commande',
    },
  },
  {
    name: 'action.generate.document',
    origin: 'reference',
    configKeys: [{ name: 'kind', type: 'string', required: true, choices: ['invoice', 'delivery_note'] }],
    sourceConfigKeys: [
      'documentTypes',
      'documentType',
      'documentRangerType',
      'fileType',
      'config',
      'static',
      'fileFormats',
    ],
    area: 'documents',
    labels: {
      en: 'Generate document',
      de: 'Dokument erzeugen',
      es: 'Generar documento',
      fr: 'Générer un document',
    },
  },
  {
    name: 'action.grant.download.access',
    origin: 'reference',
    configKeys: [{ name: 'value', type: 'bool', required: true }],
    sourceConfigKeys: ['value'],
    area: 'orders',
    labels: {
      en: 'Grant download access',
      de: 'Downloadzugriff gewähren',
      es: 'Conceder acceso a descargas',
      fr: 'Accorder l’accès aux téléchargements',
    },
  },
  {
    name: 'action.mail.send',
    origin: 'reference',
    configKeys: [{ name: 'templateId', type: 'string', required: true, choices: ['order_confirmation'] }],
    sourceConfigKeys: ['mailTemplateId', 'recipient', 'documentTypeIds', 'replyTo'],
    // Sending goes through the Email Delivery app, so the actor needs the apps area.
    area: 'apps',
    labels: {
      en: 'Send email',
      de: 'E-Mail senden',
      es: 'Enviar correo electrónico',
      fr: 'Envoyer un e-mail',
    },
  },
  {
    name: 'action.stop.flow',
    origin: 'reference',
    configKeys: [],
    sourceConfigKeys: [],
    area: null,
    labels: {
      en: 'Stop flow',
      de: 'Flow stoppen',
      es: 'Detener flujo',
      fr: 'Arrêter le flux',
    },
  },
  {
    name: 'note',
    origin: 'native',
    configKeys: [{ name: 'text', type: 'string', required: true }],
    sourceConfigKeys: [],
    area: 'orders',
    labels: {
      en: 'Write order activity note',
      de: 'Aktivitätsnotiz zur Bestellung schreiben',
      es: 'Escribir nota de actividad del pedido',
      fr: 'Écrire une note d’activité sur la commande',
    },
  },
  {
    name: 'ai_proposal',
    origin: 'native',
    configKeys: [
      { name: 'summary', type: 'string', required: true },
      { name: 'reason', type: 'string', required: false },
      { name: 'operations', type: 'array<operation>', required: false },
      /** The older form: a note for the merchant, read as a plan with this summary and no operations. */
      { name: 'instruction', type: 'string', required: false },
    ],
    sourceConfigKeys: [],
    area: 'knowledge',
    labels: {
      en: 'Draft an AI proposal',
      de: 'KI-Vorschlag entwerfen',
      es: 'Redactar una propuesta de IA',
      fr: 'Rédiger une proposition IA',
    },
  },
  {
    name: 'app_action',
    origin: 'native',
    configKeys: [
      { name: 'appId', type: 'string', required: true },
      { name: 'action', type: 'string', required: true },
      { name: 'input', type: 'object', required: false },
    ],
    sourceConfigKeys: [],
    area: 'apps',
    labels: {
      en: 'Run app action',
      de: 'App-Aktion ausführen',
      es: 'Ejecutar acción de la app',
      fr: 'Exécuter une action d’application',
    },
  },
];
