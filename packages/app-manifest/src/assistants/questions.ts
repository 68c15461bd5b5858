import * as v from 'valibot';
import { CRON_MAX_LENGTH, cronProblem } from '../cron.ts';
import { AppId, Id, MANIFEST_LIMITS } from '../schema.ts';
import { question, type Text } from './definition.ts';
import { boundedText, FIELD_FORMAT, fieldAnswers } from './fields.ts';
import { OBJECT_LABELS } from './labels.ts';

// The questions several assistants ask, with their schemas. Every assistant asks `app_id` and `name`.

const L = MANIFEST_LIMITS;

/** Texts joined per language, e.g. what fields are for and how a field is answered. */
export function joined(...texts: readonly Text[]): Text {
  const join = (language: keyof Text) => texts.map((text) => text[language]).join(' ');
  return { en: join('en'), de: join('de'), es: join('es'), fr: join('fr') };
}

/** A choice question's values (for its picklist) and choices, from one catalog of labels by value. */
export function choicesOf<const V extends string>(labels: Readonly<Record<V, Text>>) {
  const values = Object.keys(labels) as [V, ...V[]];
  return {
    values,
    choices: values.map((value) => ({ value, label: labels[value] })),
  };
}

export const appIdQuestion = question({
  type: 'string',
  schema: AppId,
  label: { en: 'App id', de: 'App-ID', es: 'Id de la app', fr: 'Identifiant de l’application' },
  help: {
    en: 'Names the app in paths, tools and events: up to 40 lowercase letters and digits, words joined by - or _, starting with a letter (e.g. gift-notes). The id of an installed app generates its next version.',
    de: 'Benennt die App in Pfaden, Tools und Ereignissen: bis zu 40 Kleinbuchstaben und Ziffern, Wörter mit - oder _ verbunden, beginnend mit einem Buchstaben (z. B. gift-notes). Die ID einer installierten App erzeugt deren nächste Version.',
    es: 'Nombra la app en rutas, herramientas y eventos: hasta 40 letras minúsculas y dígitos, palabras unidas con - o _, empezando por una letra (p. ej. gift-notes). El id de una app instalada genera su siguiente versión.',
    fr: 'Nomme l’application dans les chemins, les outils et les événements : jusqu’à 40 lettres minuscules et chiffres, mots reliés par - ou _, commençant par une lettre (p. ex. gift-notes). L’identifiant d’une application installée génère sa version suivante.',
  },
});

export const nameQuestion = question({
  type: 'string',
  schema: boundedText(L.labelLength),
  label: { en: 'App name', de: 'Name der App', es: 'Nombre de la app', fr: 'Nom de l’application' },
  help: {
    en: 'What the shop shows for the app, 1-100 characters; also the title of its blocks.',
    de: 'Wie der Shop die App anzeigt, 1–100 Zeichen; auch der Titel ihrer Blöcke.',
    es: 'Cómo muestra la tienda la app, de 1 a 100 caracteres; también el título de sus bloques.',
    fr: 'Ce que la boutique affiche pour l’application, de 1 à 100 caractères ; aussi le titre de ses blocs.',
  },
});

/** The app's table, `fallback` when not answered. */
export function entityQuestion(fallback: string) {
  return question({
    type: 'string',
    schema: v.optional(Id, fallback),
    label: { en: 'Table id', de: 'Tabellen-ID', es: 'Id de la tabla', fr: 'Identifiant de la table' },
    help: {
      en: 'The id of the table the app keeps its entries in: a lowercase letter, then lowercase letters, digits or _ (up to 40).',
      de: 'Die ID der Tabelle, in der die App ihre Einträge hält: ein Kleinbuchstabe, dann Kleinbuchstaben, Ziffern oder _ (bis zu 40).',
      es: 'El id de la tabla donde la app guarda sus entradas: una letra minúscula y luego minúsculas, dígitos o _ (hasta 40).',
      fr: 'L’identifiant de la table où l’application garde ses entrées : une lettre minuscule, puis des minuscules, des chiffres ou _ (40 au plus).',
    },
  });
}

const FIELDS_LABEL: Text = { en: 'Fields', de: 'Felder', es: 'Campos', fr: 'Champs' };

/** 1-20 fields (required), explained by what they are for. */
export function requiredFieldsQuestion(purpose: Text) {
  return question({
    type: 'fields',
    schema: fieldAnswers(1),
    label: FIELDS_LABEL,
    help: joined(purpose, FIELD_FORMAT),
  });
}

/** 0-20 fields, none when not answered. */
export function optionalFieldsQuestion(purpose: Text) {
  return question({
    type: 'fields',
    schema: v.optional(fieldAnswers(0), () => []),
    label: FIELDS_LABEL,
    help: joined(purpose, FIELD_FORMAT),
  });
}

const objects = choicesOf(OBJECT_LABELS);
const OBJECT_LABEL: Text = {
  en: 'Shop object',
  de: 'Shop-Objekt',
  es: 'Objeto de la tienda',
  fr: 'Objet de la boutique',
};

/** Product, customer or order; product when not answered. */
export function objectQuestion(help: Text) {
  return question({
    type: 'choice',
    schema: v.optional(v.picklist(objects.values), 'product'),
    label: OBJECT_LABEL,
    help,
    choices: objects.choices,
  });
}

/** A six-field UTC cron expression `cronProblem` vouches for. */
export const Cron = v.pipe(
  v.string(),
  v.maxLength(CRON_MAX_LENGTH),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const problem = cronProblem(dataset.value);
    if (problem) addIssue({ message: problem });
  }),
);

/** When a schedule runs, `fallback` when not answered. */
export function cronQuestion(fallback: string, purpose: Text) {
  return question({
    type: 'cron',
    schema: v.optional(Cron, fallback),
    label: {
      en: 'Schedule (cron)',
      de: 'Zeitplan (Cron)',
      es: 'Programación (cron)',
      fr: 'Planification (cron)',
    },
    help: joined(purpose, {
      en: 'Six fields read in UTC: second minute hour day-of-month month day-of-week, the seconds a single number (0 0 6 * * 1 is Mondays at 06:00 UTC).',
      de: 'Sechs Felder in UTC: Sekunde Minute Stunde Tag-des-Monats Monat Wochentag, die Sekunden eine einzelne Zahl (0 0 6 * * 1 ist montags um 06:00 UTC).',
      es: 'Seis campos en UTC: segundo minuto hora día-del-mes mes día-de-la-semana, los segundos un solo número (0 0 6 * * 1 es los lunes a las 06:00 UTC).',
      fr: 'Six champs lus en UTC : seconde minute heure jour-du-mois mois jour-de-la-semaine, les secondes un seul nombre (0 0 6 * * 1 : le lundi à 06:00 UTC).',
    }),
  });
}

/** An incoming webhook's id, `fallback` when not answered. */
export function webhookQuestion(fallback: string) {
  return question({
    type: 'string',
    schema: v.optional(Id, fallback),
    label: { en: 'Webhook id', de: 'Webhook-ID', es: 'Id del webhook', fr: 'Identifiant du webhook' },
    help: {
      en: 'The last segment of the webhook’s address …/webhooks/apps/{shop}/{app}/{webhook}: an id (lowercase letters, digits, _). Its signing key is configured by the operator.',
      de: 'Das letzte Segment der Webhook-Adresse …/webhooks/apps/{shop}/{app}/{webhook}: eine ID (Kleinbuchstaben, Ziffern, _). Den Signaturschlüssel richtet der Betreiber ein.',
      es: 'El último segmento de la dirección del webhook …/webhooks/apps/{shop}/{app}/{webhook}: un id (minúsculas, dígitos, _). Su clave de firma la configura el operador.',
      fr: 'Le dernier segment de l’adresse du webhook …/webhooks/apps/{shop}/{app}/{webhook} : un identifiant (minuscules, chiffres, _). Sa clé de signature est configurée par l’opérateur.',
    },
  });
}

/** The name buyers see for a payment or shipping method. */
export function methodLabelQuestion(label: Text, help: Text) {
  return question({ type: 'string', schema: boundedText(L.labelLength), label, help });
}
