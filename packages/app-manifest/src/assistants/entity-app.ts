import * as v from 'valibot';
import { CORE_REFERENCE_PERMISSION, MOUNT_CONTEXT } from '../access.ts';
import type { Action, AppPermission, Block, BlockKind, CoreReferenceKind, Mount } from '../schema.ts';
import { question, type ReportAnswer, type Text } from './definition.ts';
import { objectIdInput, objectIdName } from './fields.ts';
import { type ActionText, ENTITY_ACTION_TEXTS } from './labels.ts';
import { choicesOf } from './questions.ts';

// What the assistants that give an app a table share (frontend, admin, combined, integration):
// the entity actions, and the admin blocks beside a product, customer or order.

export type ActionDraft = v.InferInput<typeof Action>;
export type BlockDraft = v.InferInput<typeof Block>;

/** A label and an MCP tool description from a catalog. */
export function actionTexts(text: ActionText): Pick<ActionDraft, 'label' | 'description'> {
  return { label: text.label, description: text.description };
}

type EntityActionId = keyof typeof ENTITY_ACTION_TEXTS;

/**
 * The actions of the app's table, each named by its kind (`list`, `get`, …). `isPublic` makes the
 * reads public (the entity must be `publicRead`); writes never are.
 */
export function entityActions(
  entity: string,
  ids: readonly EntityActionId[],
  isPublic: boolean,
): ActionDraft[] {
  return ids.map((id) => ({
    id,
    kind: id,
    entity,
    ...actionTexts(ENTITY_ACTION_TEXTS[id]),
    mcp: false,
    public: isPublic && (id === 'list' || id === 'get'),
  }));
}

/** The permission to read the object an app's data belongs to. */
export function permissionOf(object: CoreReferenceKind): AppPermission {
  return CORE_REFERENCE_PERMISSION[object];
}

/** The admin mounts beside each object that new apps use (not the legacy `admin.product`). */
export const ADMIN_MOUNTS: Readonly<Record<CoreReferenceKind, readonly Mount[]>> = {
  product: ['admin.product.general', 'admin.product.tab'],
  customer: ['admin.customer'],
  order: ['admin.order', 'admin.order.general'],
};

const MOUNT_LABELS = {
  'admin.product.general': {
    en: 'Product page, General',
    de: 'Produktseite, Allgemein',
    es: 'Página del producto, General',
    fr: 'Page produit, Général',
  },
  'admin.product.tab': {
    en: 'Product page, own tab',
    de: 'Produktseite, eigener Reiter',
    es: 'Página del producto, pestaña propia',
    fr: 'Page produit, onglet dédié',
  },
  'admin.customer': { en: 'Customer page', de: 'Kundenseite', es: 'Página del cliente', fr: 'Page client' },
  'admin.order': { en: 'Order page', de: 'Bestellseite', es: 'Página del pedido', fr: 'Page de commande' },
  'admin.order.general': {
    en: 'Order page, General',
    de: 'Bestellseite, Allgemein',
    es: 'Página del pedido, General',
    fr: 'Page de commande, Général',
  },
} as const satisfies Record<string, Text>;

const MOUNTS_LABEL: Text = {
  en: 'Places in the admin',
  de: 'Orte im Admin',
  es: 'Lugares en el admin',
  fr: 'Emplacements dans l’admin',
};

const allMounts = choicesOf(MOUNT_LABELS);

/** Where the admin blocks go: one or more mounts, each fitting the object (`checkMounts`). */
export const mountsQuestion = question({
  type: 'choices',
  schema: v.pipe(v.array(v.picklist(allMounts.values)), v.minLength(1), v.maxLength(allMounts.values.length)),
  label: MOUNTS_LABEL,
  help: {
    en: 'Where the blocks appear, fitting the object: admin.product.general or admin.product.tab for products, admin.customer for customers, admin.order or admin.order.general for orders.',
    de: 'Wo die Blöcke erscheinen, passend zum Objekt: admin.product.general oder admin.product.tab für Produkte, admin.customer für Kunden, admin.order oder admin.order.general für Bestellungen.',
    es: 'Dónde aparecen los bloques, según el objeto: admin.product.general o admin.product.tab para productos, admin.customer para clientes, admin.order o admin.order.general para pedidos.',
    fr: 'Où les blocs apparaissent, selon l’objet : admin.product.general ou admin.product.tab pour les produits, admin.customer pour les clients, admin.order ou admin.order.general pour les commandes.',
  },
  choices: allMounts.choices,
});

const productMounts = choicesOf({
  'admin.product.general': MOUNT_LABELS['admin.product.general'],
  'admin.product.tab': MOUNT_LABELS['admin.product.tab'],
});

/** The product page's mounts only, the general section when not answered. */
export const productMountsQuestion = question({
  type: 'choices',
  schema: v.optional(
    v.pipe(
      v.array(v.picklist(productMounts.values)),
      v.minLength(1),
      v.maxLength(productMounts.values.length),
    ),
    () => ['admin.product.general' as const],
  ),
  label: MOUNTS_LABEL,
  help: {
    en: 'Where the blocks appear on the product page: admin.product.general (its General section), admin.product.tab (a tab of their own), or both.',
    de: 'Wo die Blöcke auf der Produktseite erscheinen: admin.product.general (Bereich Allgemein), admin.product.tab (ein eigener Reiter) oder beides.',
    es: 'Dónde aparecen los bloques en la página del producto: admin.product.general (su sección General), admin.product.tab (una pestaña propia) o ambos.',
    fr: 'Où les blocs apparaissent sur la page produit : admin.product.general (sa section Général), admin.product.tab (un onglet dédié) ou les deux.',
  },
  choices: productMounts.choices,
});

const blockKinds = choicesOf({
  table: { en: 'Table', de: 'Tabelle', es: 'Tabla', fr: 'Tableau' },
  card: { en: 'Card', de: 'Karte', es: 'Tarjeta', fr: 'Carte' },
  form: { en: 'Form', de: 'Formular', es: 'Formulario', fr: 'Formulaire' },
  action: { en: 'Button', de: 'Schaltfläche', es: 'Botón', fr: 'Bouton' },
} satisfies Record<BlockKind, Text>);

/** What each mount shows: one block per kind, a table and a form when not answered. */
export const blocksQuestion = question({
  type: 'choices',
  schema: v.optional(
    v.pipe(v.array(v.picklist(blockKinds.values)), v.minLength(1), v.maxLength(blockKinds.values.length)),
    () => ['table' as const, 'form' as const],
  ),
  label: { en: 'Blocks', de: 'Blöcke', es: 'Bloques', fr: 'Blocs' },
  help: {
    en: 'What each place shows: table (the object’s entries), card (its first entry), form (add an entry), action (a button that runs the app’s service with the object’s id).',
    de: 'Was jeder Ort zeigt: table (die Einträge des Objekts), card (sein erster Eintrag), form (Eintrag hinzufügen), action (eine Schaltfläche, die den Dienst der App mit der ID des Objekts ausführt).',
    es: 'Lo que muestra cada lugar: table (las entradas del objeto), card (su primera entrada), form (añadir una entrada), action (un botón que ejecuta el servicio de la app con el id del objeto).',
    fr: 'Ce que montre chaque emplacement : table (les entrées de l’objet), card (sa première entrée), form (ajouter une entrée), action (un bouton qui exécute le service de l’application avec l’identifiant de l’objet).',
  },
  choices: blockKinds.choices,
});

/** Each item once. */
export function checkUnique(items: readonly string[], pointer: string, report: ReportAnswer): void {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (seen.has(item)) report(`${pointer}/${index}`, `"${item}" is answered twice`);
    seen.add(item);
  });
}

/** Mounts beside the object, each once. */
export function checkMounts(
  mounts: readonly Mount[],
  object: CoreReferenceKind,
  pointer: string,
  report: ReportAnswer,
): void {
  checkUnique(mounts, pointer, report);
  const fitting = ADMIN_MOUNTS[object];
  mounts.forEach((mount, index) => {
    if (!fitting.includes(mount)) {
      report(`${pointer}/${index}`, `${mount} is not on the ${object} page; use ${fitting.join(' or ')}`);
    }
  });
}

const RUN_TEXT: ActionText = {
  label: { en: 'Run', de: 'Ausführen', es: 'Ejecutar', fr: 'Exécuter' },
  description: {
    en: 'Runs the app’s service for the object of the page (its id in the input) and answers a message.',
    de: 'Führt den Dienst der App für das Objekt der Seite aus (seine ID in der Eingabe) und antwortet mit einer Nachricht.',
    es: 'Ejecuta el servicio de la app para el objeto de la página (su id en la entrada) y responde con un mensaje.',
    fr: 'Exécute le service de l’application pour l’objet de la page (son identifiant en entrée) et répond par un message.',
  },
};

/** The action blocks' action: the app's service, given the page's object. */
export function runAction(object: CoreReferenceKind): ActionDraft {
  return {
    id: 'run',
    kind: 'service',
    runtime: 'external',
    ...actionTexts(RUN_TEXT),
    mcp: false,
    input: [objectIdInput(object)],
    output: [
      {
        name: 'message',
        type: 'string',
        maxLength: 1000,
        label: { en: 'Message', de: 'Nachricht', es: 'Mensaje', fr: 'Message' },
      },
    ],
  };
}

/** The action each block kind runs. */
const BLOCK_ACTIONS: Readonly<Record<BlockKind, string>> = {
  table: 'list',
  card: 'list',
  form: 'create',
  action: 'run',
};

/**
 * One block per mount and kind, `<kind>_<n>` for the n-th mount, each bound to the page's object;
 * with the `run` action when a kind is `action`.
 */
export function adminParts(
  object: CoreReferenceKind,
  mounts: readonly Mount[],
  kinds: readonly BlockKind[],
  title: string,
): { actions: ActionDraft[]; blocks: BlockDraft[] } {
  const field = objectIdName(object);
  const blocks = mounts.flatMap((mount, index) =>
    kinds.map(
      (kind): BlockDraft => ({
        id: `${kind}_${index + 1}`,
        kind,
        mount,
        action: BLOCK_ACTIONS[kind],
        title: { en: title },
        contextBinding: { field, key: MOUNT_CONTEXT[mount] },
      }),
    ),
  );
  return { actions: kinds.includes('action') ? [runAction(object)] : [], blocks };
}

/** The table visitors see beside a product; `isBound` shows that product's rows only. */
export function storefrontBlock(title: string, isBound: boolean): BlockDraft {
  return {
    id: 'storefront',
    kind: 'table',
    mount: 'storefront.product',
    action: 'list',
    title: { en: title },
    ...(isBound ? { contextBinding: { field: objectIdName('product'), key: 'productId' } } : {}),
  };
}
