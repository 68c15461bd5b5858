import type { ActionConfigKey, ActionDefinition } from './model.ts';

// Each config key says how an editor asks for it (`input`) and what it is called in the four
// interface languages (the admin's flow builder renders one typed input per key from this).

const TAGS: readonly ActionConfigKey[] = [
  {
    name: 'tags',
    alias: 'tagIds',
    type: 'array<string>',
    required: true,
    input: 'list',
    labels: { en: 'Tags', de: 'Tags', es: 'Etiquetas', fr: 'Étiquettes' },
  },
];
const CODES: readonly ActionConfigKey[] = [
  {
    name: 'affiliateCode',
    type: 'string | null',
    required: false,
    input: 'string',
    labels: {
      en: 'Affiliate code',
      de: 'Partnercode',
      es: 'Código de afiliado',
      fr: 'Code d’affiliation',
    },
  },
  {
    name: 'campaignCode',
    type: 'string | null',
    required: false,
    input: 'string',
    labels: { en: 'Campaign code', de: 'Kampagnencode', es: 'Código de campaña', fr: 'Code de campagne' },
  },
];
const CUSTOM_FIELD: readonly ActionConfigKey[] = [
  {
    name: 'field',
    type: 'string',
    required: true,
    input: 'string',
    labels: { en: 'Field', de: 'Feld', es: 'Campo', fr: 'Champ' },
  },
  {
    name: 'value',
    type: 'json',
    required: true,
    input: 'json',
    labels: { en: 'Value', de: 'Wert', es: 'Valor', fr: 'Valeur' },
  },
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
        input: 'choice',
        choices: ['consumer', 'business'],
        labels: {
          en: 'Customer group',
          de: 'Kundengruppe',
          es: 'Grupo de clientes',
          fr: 'Groupe de clients',
        },
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
    configKeys: [
      {
        name: 'active',
        type: 'bool',
        required: true,
        input: 'boolean',
        labels: { en: 'Active', de: 'Aktiv', es: 'Activo', fr: 'Actif' },
      },
    ],
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
      {
        name: 'kind',
        type: 'string',
        required: true,
        input: 'choice',
        choices: ['order', 'payment', 'delivery'],
        labels: { en: 'Which state', de: 'Welcher Status', es: 'Qué estado', fr: 'Quel état' },
      },
      {
        name: 'state',
        type: 'string',
        required: true,
        input: 'string',
        labels: { en: 'New state', de: 'Neuer Status', es: 'Nuevo estado', fr: 'Nouvel état' },
      },
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
    configKeys: [
      {
        name: 'kind',
        type: 'string',
        required: true,
        input: 'choice',
        choices: ['invoice', 'delivery_note'],
        labels: { en: 'Document', de: 'Dokument', es: 'Documento', fr: 'Document' },
      },
    ],
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
    configKeys: [
      {
        name: 'value',
        type: 'bool',
        required: true,
        input: 'boolean',
        labels: { en: 'Access granted', de: 'Zugriff gewährt', es: 'Acceso concedido', fr: 'Accès accordé' },
      },
    ],
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
    configKeys: [
      {
        name: 'templateId',
        type: 'string',
        required: true,
        input: 'choice',
        choices: ['order_confirmation'],
        labels: {
          en: 'Mail template',
          de: 'E-Mail-Vorlage',
          es: 'Plantilla de correo',
          fr: 'Modèle d’e-mail',
        },
      },
    ],
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
    configKeys: [
      {
        name: 'text',
        type: 'string | {language: string}',
        required: true,
        input: 'text',
        labels: { en: 'Note', de: 'Notiz', es: 'Nota', fr: 'Note' },
      },
    ],
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
      {
        name: 'summary',
        type: 'string',
        required: true,
        input: 'string',
        labels: { en: 'Summary', de: 'Zusammenfassung', es: 'Resumen', fr: 'Résumé' },
      },
      {
        name: 'reason',
        type: 'string',
        required: false,
        input: 'text',
        labels: { en: 'Reason', de: 'Begründung', es: 'Motivo', fr: 'Motif' },
      },
      {
        name: 'operations',
        type: 'array<operation>',
        required: false,
        input: 'json',
        labels: {
          en: 'Proposed operations',
          de: 'Vorgeschlagene Operationen',
          es: 'Operaciones propuestas',
          fr: 'Opérations proposées',
        },
      },
      /** The older form: a note for the merchant, read as a plan with this summary and no operations. */
      {
        name: 'instruction',
        type: 'string',
        required: false,
        input: 'text',
        labels: {
          en: 'Instruction (older form)',
          de: 'Anweisung (ältere Form)',
          es: 'Instrucción (forma antigua)',
          fr: 'Instruction (ancienne forme)',
        },
      },
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
      {
        name: 'appId',
        type: 'string',
        required: true,
        input: 'reference',
        references: 'app',
        labels: { en: 'App', de: 'App', es: 'App', fr: 'Application' },
      },
      {
        name: 'action',
        type: 'string',
        required: true,
        input: 'reference',
        references: 'appAction',
        labels: { en: 'App action', de: 'App-Aktion', es: 'Acción de la app', fr: 'Action de l’application' },
      },
      {
        name: 'input',
        type: 'object',
        required: false,
        input: 'json',
        labels: {
          en: 'Input (JSON object; {"$fact": name} binds a fact of the order)',
          de: 'Eingabe (JSON-Objekt; {"$fact": Name} bindet einen Fakt der Bestellung)',
          es: 'Entrada (objeto JSON; {"$fact": nombre} enlaza un dato del pedido)',
          fr: 'Entrée (objet JSON ; {"$fact": nom} lie un fait de la commande)',
        },
      },
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
