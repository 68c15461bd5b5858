import { appDraft, defineAssistant } from './definition.ts';
import {
  adminParts,
  blocksQuestion,
  checkMounts,
  checkUnique,
  entityActions,
  permissionOf,
  productMountsQuestion,
  storefrontBlock,
} from './entity-app.ts';
import { checkEntityId, checkFieldAnswers, manifestField, objectIdField, objectIdName } from './fields.ts';
import { appIdQuestion, entityQuestion, nameQuestion, requiredFieldsQuestion } from './questions.ts';

/**
 * One table of product data, public on the storefront and edited on the product's admin page. The
 * object is always the product: a `publicRead` table may not hold customer or order references.
 */
export const combined = defineAssistant({
  id: 'combined',
  title: {
    en: 'Storefront and admin',
    de: 'Storefront und Admin',
    es: 'Tienda y admin',
    fr: 'Vitrine et admin',
  },
  description: {
    en: 'One table of product entries: visitors see a product’s entries on the storefront, editors keep them on the product’s admin page.',
    de: 'Eine Tabelle mit Produkteinträgen: Besucher sehen die Einträge eines Produkts im Storefront, Redakteure pflegen sie auf der Produktseite im Admin.',
    es: 'Una tabla de entradas de producto: los visitantes ven las entradas de un producto en la tienda y los editores las mantienen en la página del producto en el admin.',
    fr: 'Une table d’entrées produit : les visiteurs voient les entrées d’un produit en vitrine, les rédacteurs les tiennent sur la page produit de l’admin.',
  },
  questions: {
    app_id: appIdQuestion,
    name: nameQuestion,
    entity: entityQuestion('entry'),
    fields: requiredFieldsQuestion({
      en: 'The 1-20 fields of a product’s entry, all shown to visitors.',
      de: 'Die 1–20 Felder eines Produkteintrags, alle für Besucher sichtbar.',
      es: 'Los 1-20 campos de una entrada de producto, todos visibles para los visitantes.',
      fr: 'Les 1 à 20 champs d’une entrée produit, tous visibles des visiteurs.',
    }),
    mounts: productMountsQuestion,
    blocks: blocksQuestion,
  },
  check(answers, report) {
    checkEntityId(answers.entity, '/entity', report);
    const taken = [objectIdName('product')];
    checkFieldAnswers(answers.fields, '/fields', { kind: 'entity', taken }, report);
    checkMounts(answers.mounts, 'product', '/mounts', report);
    checkUnique(answers.blocks, '/blocks', report);
  },
  generate(answers) {
    const { entity } = answers;
    const parts = adminParts('product', answers.mounts, answers.blocks, answers.name);
    return {
      manifest: appDraft(answers, {
        permissions: [permissionOf('product')],
        entities: [
          {
            id: entity,
            label: { en: answers.name },
            publicRead: true,
            fields: [objectIdField('product', true), ...answers.fields.map(manifestField)],
          },
        ],
        actions: [
          ...entityActions(entity, ['list', 'get', 'create', 'update', 'delete'], true),
          ...parts.actions,
        ],
        blocks: [storefrontBlock(answers.name, true), ...parts.blocks],
      }),
      module: null,
    };
  },
});
