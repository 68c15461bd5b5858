import { appDraft, defineAssistant } from './definition.ts';
import { type ActionDraft, actionTexts, entityActions, permissionOf } from './entity-app.ts';
import { checkEntityId, checkFieldAnswers, manifestField, objectIdField, objectIdName } from './fields.ts';
import type { ActionText } from './labels.ts';
import {
  appIdQuestion,
  cronQuestion,
  entityQuestion,
  nameQuestion,
  objectQuestion,
  optionalFieldsQuestion,
  webhookQuestion,
} from './questions.ts';

const EXTERNAL_ID = 'external_id';

const UPSERT_TEXT: ActionText = {
  label: {
    en: 'Receive an entry',
    de: 'Eintrag empfangen',
    es: 'Recibir una entrada',
    fr: 'Recevoir une entrée',
  },
  description: {
    en: 'Adds an entry sent by the ERP and emits an event for the app’s service.',
    de: 'Fügt einen vom ERP gesendeten Eintrag hinzu und löst ein Ereignis für den Dienst der App aus.',
    es: 'Añade una entrada enviada por el ERP y emite un evento para el servicio de la app.',
    fr: 'Ajoute une entrée envoyée par l’ERP et émet un événement pour le service de l’application.',
  },
};

const SYNC_TEXT: ActionText = {
  label: { en: 'Synchronize', de: 'Synchronisieren', es: 'Sincronizar', fr: 'Synchroniser' },
  description: {
    en: 'Runs a sync in the app’s service and answers how many entries it synced.',
    de: 'Führt im Dienst der App einen Abgleich aus und meldet, wie viele Einträge abgeglichen wurden.',
    es: 'Ejecuta una sincronización en el servicio de la app y responde cuántas entradas sincronizó.',
    fr: 'Lance une synchronisation dans le service de l’application et répond combien d’entrées ont été synchronisées.',
  },
};

const SYNC_ACTION: ActionDraft = {
  id: 'sync',
  kind: 'service',
  runtime: 'external',
  ...actionTexts(SYNC_TEXT),
  mcp: false,
  emits: true,
  input: [],
  output: [
    {
      name: 'synced',
      type: 'integer',
      min: 0,
      required: true,
      label: {
        en: 'Entries synced',
        de: 'Abgeglichene Einträge',
        es: 'Entradas sincronizadas',
        fr: 'Entrées synchronisées',
      },
    },
  ],
};

/**
 * A third-party system (an ERP) beside the shop: a table mapping its ids to the shop's objects,
 * filled through a signed webhook, and the app's service syncing on a schedule.
 */
export const integration = defineAssistant({
  id: 'integration',
  title: { en: 'ERP integration', de: 'ERP-Anbindung', es: 'Integración con ERP', fr: 'Intégration ERP' },
  description: {
    en: 'Keeps a mapping between your ERP and the shop’s products, customers or orders: the ERP sends entries through a signed webhook, and the app’s service syncs on a schedule.',
    de: 'Führt eine Zuordnung zwischen Ihrem ERP und den Produkten, Kunden oder Bestellungen des Shops: Das ERP sendet Einträge über einen signierten Webhook, und der Dienst der App gleicht nach Zeitplan ab.',
    es: 'Mantiene una correspondencia entre su ERP y los productos, clientes o pedidos de la tienda: el ERP envía entradas mediante un webhook firmado y el servicio de la app sincroniza según una programación.',
    fr: 'Tient une correspondance entre votre ERP et les produits, clients ou commandes de la boutique : l’ERP envoie des entrées par un webhook signé et le service de l’application synchronise selon une planification.',
  },
  questions: {
    app_id: appIdQuestion,
    name: nameQuestion,
    entity: entityQuestion('mapping'),
    object: objectQuestion({
      en: 'The shop object each entry maps to: a product_id, customer_id or order_id field beside the ERP’s external_id.',
      de: 'Das Shop-Objekt, dem jeder Eintrag zugeordnet ist: ein Feld product_id, customer_id oder order_id neben der external_id des ERP.',
      es: 'El objeto de la tienda al que corresponde cada entrada: un campo product_id, customer_id u order_id junto al external_id del ERP.',
      fr: 'L’objet de la boutique auquel correspond chaque entrée : un champ product_id, customer_id ou order_id à côté de l’external_id de l’ERP.',
    }),
    fields: optionalFieldsQuestion({
      en: 'Up to 20 more fields the ERP sends with an entry (none is fine).',
      de: 'Bis zu 20 weitere Felder, die das ERP mit einem Eintrag sendet (keines ist auch möglich).',
      es: 'Hasta 20 campos más que el ERP envía con una entrada (ninguno también vale).',
      fr: 'Jusqu’à 20 champs de plus que l’ERP envoie avec une entrée (aucun convient aussi).',
    }),
    cron: cronQuestion('0 0 * * * *', {
      en: 'When the app’s service syncs; every hour on the hour when not answered.',
      de: 'Wann der Dienst der App abgleicht; ohne Antwort jede volle Stunde.',
      es: 'Cuándo sincroniza el servicio de la app; sin respuesta, cada hora en punto.',
      fr: 'Quand le service de l’application synchronise ; sans réponse, toutes les heures pile.',
    }),
    webhook: webhookQuestion('push'),
  },
  check(answers, report) {
    checkEntityId(answers.entity, '/entity', report);
    const taken = [EXTERNAL_ID, objectIdName(answers.object)];
    checkFieldAnswers(answers.fields, '/fields', { kind: 'entity', taken }, report);
  },
  generate(answers) {
    const { entity, object } = answers;
    return {
      manifest: appDraft(answers, {
        permissions: [permissionOf(object)],
        entities: [
          {
            id: entity,
            label: { en: answers.name },
            fields: [
              {
                name: EXTERNAL_ID,
                type: 'string',
                maxLength: 100,
                required: true,
                indexable: true,
                label: { en: 'External ID', de: 'Externe ID', es: 'ID externo', fr: 'ID externe' },
              },
              // Not required: the ERP may send an entry before it knows the shop's object.
              objectIdField(object, false),
              ...answers.fields.map(manifestField),
            ],
          },
        ],
        actions: [
          ...entityActions(entity, ['list', 'get'], false),
          { id: 'upsert', kind: 'create', entity, ...actionTexts(UPSERT_TEXT), mcp: false, emits: true },
          SYNC_ACTION,
        ],
        schedules: [
          {
            id: 'sync',
            label: SYNC_TEXT.label,
            cron: answers.cron,
            action: 'sync',
            input: {},
            enabled: true,
          },
        ],
        webhooks: [{ id: answers.webhook, label: UPSERT_TEXT.label, action: 'upsert' }],
        // A tick and a push are events (`app.<app>.sync`, `app.<app>.upsert`): the app's service
        // gets both as signed deliveries, so it syncs on the tick and sees each push.
        subscriptions: [`app.${answers.app_id}.*`],
      }),
      module: null,
    };
  },
});
