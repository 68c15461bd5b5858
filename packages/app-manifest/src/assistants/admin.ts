import { appDraft, defineAssistant } from './definition.ts';
import {
  adminParts,
  blocksQuestion,
  checkMounts,
  checkUnique,
  entityActions,
  mountsQuestion,
  permissionOf,
} from './entity-app.ts';
import { checkEntityId, checkFieldAnswers, manifestField, objectIdField, objectIdName } from './fields.ts';
import {
  appIdQuestion,
  entityQuestion,
  nameQuestion,
  objectQuestion,
  requiredFieldsQuestion,
} from './questions.ts';

/** Private data beside a product, customer or order in the admin, in tables, cards, forms and buttons. */
export const admin = defineAssistant({
  id: 'admin',
  title: {
    en: 'Admin extension',
    de: 'Admin-Erweiterung',
    es: 'Extensión del admin',
    fr: 'Extension de l’admin',
  },
  description: {
    en: 'A table of your own entries beside each product, customer or order in the admin: tables, cards, forms, and a button that runs the app’s service.',
    de: 'Eine Tabelle eigener Einträge neben jedem Produkt, Kunden oder jeder Bestellung im Admin: Tabellen, Karten, Formulare und eine Schaltfläche, die den Dienst der App ausführt.',
    es: 'Una tabla de entradas propias junto a cada producto, cliente o pedido en el admin: tablas, tarjetas, formularios y un botón que ejecuta el servicio de la app.',
    fr: 'Une table de vos propres entrées à côté de chaque produit, client ou commande dans l’admin : tableaux, cartes, formulaires et un bouton qui exécute le service de l’application.',
  },
  questions: {
    app_id: appIdQuestion,
    name: nameQuestion,
    entity: entityQuestion('entry'),
    fields: requiredFieldsQuestion({
      en: 'The 1-20 fields of an entry besides the object it belongs to.',
      de: 'Die 1–20 Felder eines Eintrags neben dem Objekt, zu dem er gehört.',
      es: 'Los 1-20 campos de una entrada además del objeto al que pertenece.',
      fr: 'Les 1 à 20 champs d’une entrée en plus de l’objet auquel elle appartient.',
    }),
    object: objectQuestion({
      en: 'The object whose admin page shows the app; each entry belongs to one (a product_id, customer_id or order_id field).',
      de: 'Das Objekt, auf dessen Admin-Seite die App erscheint; jeder Eintrag gehört zu einem (Feld product_id, customer_id oder order_id).',
      es: 'El objeto en cuya página del admin aparece la app; cada entrada pertenece a uno (un campo product_id, customer_id u order_id).',
      fr: 'L’objet dont la page d’admin affiche l’application ; chaque entrée appartient à un objet (un champ product_id, customer_id ou order_id).',
    }),
    mounts: mountsQuestion,
    blocks: blocksQuestion,
  },
  check(answers, report) {
    checkEntityId(answers.entity, '/entity', report);
    const taken = [objectIdName(answers.object)];
    checkFieldAnswers(answers.fields, '/fields', { kind: 'entity', taken }, report);
    checkMounts(answers.mounts, answers.object, '/mounts', report);
    checkUnique(answers.blocks, '/blocks', report);
  },
  generate(answers) {
    const { object, entity } = answers;
    const parts = adminParts(object, answers.mounts, answers.blocks, answers.name);
    return {
      manifest: appDraft(answers, {
        permissions: [permissionOf(object)],
        entities: [
          {
            id: entity,
            label: { en: answers.name },
            fields: [objectIdField(object, true), ...answers.fields.map(manifestField)],
          },
        ],
        actions: [
          ...entityActions(entity, ['list', 'get', 'create', 'update', 'delete'], false),
          ...parts.actions,
        ],
        blocks: parts.blocks,
      }),
      module: null,
    };
  },
});
