import type { CoreReferenceKind } from '../schema.ts';
import type { Text } from './definition.ts';

// The fixed labels and descriptions the assistants write into manifests, in every language a
// label carries. What the merchant answers (the app's name, a field's label) is written in `en`
// only: the assistants do not translate people's words.

/** The core objects, as the label of the field holding one's id and as a choice. */
export const OBJECT_LABELS: Readonly<Record<CoreReferenceKind, Text>> = {
  product: { en: 'Product', de: 'Produkt', es: 'Producto', fr: 'Produit' },
  customer: { en: 'Customer', de: 'Kunde', es: 'Cliente', fr: 'Client' },
  order: { en: 'Order', de: 'Bestellung', es: 'Pedido', fr: 'Commande' },
};

export interface ActionText {
  readonly label: Text;
  readonly description: Text;
}

/** The entity actions the assistants declare, by the action id they give them. */
export const ENTITY_ACTION_TEXTS = {
  list: {
    label: { en: 'List entries', de: 'Einträge auflisten', es: 'Listar entradas', fr: 'Lister les entrées' },
    description: {
      en: "Lists the rows of the app's table; filter by an indexable field.",
      de: 'Listet die Zeilen der Tabelle der App auf; filterbar nach einem indizierbaren Feld.',
      es: 'Lista las filas de la tabla de la app; se puede filtrar por un campo indexable.',
      fr: "Liste les lignes de la table de l'application ; filtrable par un champ indexable.",
    },
  },
  get: {
    label: { en: 'Get an entry', de: 'Eintrag abrufen', es: 'Obtener una entrada', fr: 'Lire une entrée' },
    description: {
      en: "Reads one row of the app's table by its id.",
      de: 'Liest eine Zeile der Tabelle der App anhand ihrer ID.',
      es: 'Lee una fila de la tabla de la app por su id.',
      fr: "Lit une ligne de la table de l'application par son identifiant.",
    },
  },
  create: {
    label: {
      en: 'Add an entry',
      de: 'Eintrag hinzufügen',
      es: 'Añadir una entrada',
      fr: 'Ajouter une entrée',
    },
    description: {
      en: "Adds a row to the app's table.",
      de: 'Fügt der Tabelle der App eine Zeile hinzu.',
      es: 'Añade una fila a la tabla de la app.',
      fr: "Ajoute une ligne à la table de l'application.",
    },
  },
  update: {
    label: {
      en: 'Change an entry',
      de: 'Eintrag ändern',
      es: 'Modificar una entrada',
      fr: 'Modifier une entrée',
    },
    description: {
      en: "Changes a row of the app's table (at the revision it was read at).",
      de: 'Ändert eine Zeile der Tabelle der App (in der gelesenen Revision).',
      es: 'Modifica una fila de la tabla de la app (en la revisión leída).',
      fr: "Modifie une ligne de la table de l'application (à la révision lue).",
    },
  },
  delete: {
    label: {
      en: 'Delete an entry',
      de: 'Eintrag löschen',
      es: 'Eliminar una entrada',
      fr: 'Supprimer une entrée',
    },
    description: {
      en: "Deletes a row of the app's table.",
      de: 'Löscht eine Zeile der Tabelle der App.',
      es: 'Elimina una fila de la tabla de la app.',
      fr: "Supprime une ligne de la table de l'application.",
    },
  },
} as const satisfies Record<string, ActionText>;
