import * as v from 'valibot';
import { appDraft, defineAssistant, question } from './definition.ts';
import { entityActions, permissionOf, storefrontBlock } from './entity-app.ts';
import { checkEntityId, checkFieldAnswers, manifestField, objectIdField, objectIdName } from './fields.ts';
import { appIdQuestion, entityQuestion, nameQuestion, requiredFieldsQuestion } from './questions.ts';

/** Public data beside a product on the storefront: a `publicRead` table and its public reads. */
export const frontend = defineAssistant({
  id: 'frontend',
  title: {
    en: 'Storefront data',
    de: 'Daten im Storefront',
    es: 'Datos en la tienda',
    fr: 'Données en vitrine',
  },
  description: {
    en: 'A table of your own entries that visitors see on the storefront beside a product, read through public list and get actions; editors keep the entries in the admin.',
    de: 'Eine Tabelle eigener Einträge, die Besucher im Storefront neben einem Produkt sehen, gelesen über öffentliche Aktionen list und get; Redakteure pflegen die Einträge im Admin.',
    es: 'Una tabla de entradas propias que los visitantes ven en la tienda junto a un producto, leídas mediante acciones públicas list y get; los editores mantienen las entradas en el admin.',
    fr: 'Une table de vos propres entrées que les visiteurs voient en vitrine à côté d’un produit, lues par des actions publiques list et get ; les rédacteurs tiennent les entrées dans l’admin.',
  },
  questions: {
    app_id: appIdQuestion,
    name: nameQuestion,
    entity: entityQuestion('entry'),
    fields: requiredFieldsQuestion({
      en: 'The 1-20 fields of an entry, all shown to visitors.',
      de: 'Die 1–20 Felder eines Eintrags, alle für Besucher sichtbar.',
      es: 'Los 1-20 campos de una entrada, todos visibles para los visitantes.',
      fr: 'Les 1 à 20 champs d’une entrée, tous visibles des visiteurs.',
    }),
    product_bound: question({
      type: 'boolean',
      schema: v.optional(v.boolean(), true),
      label: {
        en: 'One list per product',
        de: 'Eine Liste je Produkt',
        es: 'Una lista por producto',
        fr: 'Une liste par produit',
      },
      help: {
        en: 'Yes: each entry belongs to a product (a product_id field) and a product shows its own entries. No: every product shows all entries.',
        de: 'Ja: Jeder Eintrag gehört zu einem Produkt (Feld product_id), und ein Produkt zeigt seine eigenen Einträge. Nein: Jedes Produkt zeigt alle Einträge.',
        es: 'Sí: cada entrada pertenece a un producto (un campo product_id) y un producto muestra sus propias entradas. No: cada producto muestra todas las entradas.',
        fr: 'Oui : chaque entrée appartient à un produit (un champ product_id) et un produit affiche ses propres entrées. Non : chaque produit affiche toutes les entrées.',
      },
    }),
  },
  check(answers, report) {
    checkEntityId(answers.entity, '/entity', report);
    const taken = answers.product_bound ? [objectIdName('product')] : [];
    checkFieldAnswers(answers.fields, '/fields', { kind: 'entity', taken }, report);
  },
  generate(answers) {
    const bound = answers.product_bound;
    const fields = answers.fields.map(manifestField);
    return {
      manifest: appDraft(answers, {
        permissions: bound ? [permissionOf('product')] : [],
        entities: [
          {
            id: answers.entity,
            label: { en: answers.name },
            publicRead: true,
            fields: bound ? [objectIdField('product', true), ...fields] : fields,
          },
        ],
        actions: entityActions(answers.entity, ['list', 'get', 'create', 'update', 'delete'], true),
        blocks: [storefrontBlock(answers.name, bound)],
      }),
      module: null,
    };
  },
});
