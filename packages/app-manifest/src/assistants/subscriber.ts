import * as v from 'valibot';
import { MANIFEST_LIMITS, Manifest } from '../schema.ts';
import { appDraft, defineAssistant, question } from './definition.ts';
import { checkUnique } from './entity-app.ts';
import { appIdQuestion, nameQuestion } from './questions.ts';

const L = MANIFEST_LIMITS;

/** One subscription exactly as the manifest reads it: an event name or a `prefix.*`. */
const Subscription = v.pipe(
  v.string(),
  v.maxLength(L.eventNameLength),
  v.check(
    (name) => v.is(Manifest.entries.subscriptions, [name]),
    'an event name is dot-separated lowercase words (order.placed), or a prefix followed by .* (order.*)',
  ),
);

/** The shop's events delivered to the app's own service, signed and at least once. */
export const subscriber = defineAssistant({
  id: 'subscriber',
  title: {
    en: 'Event subscriber',
    de: 'Ereignis-Abonnent',
    es: 'Suscriptor de eventos',
    fr: 'Abonné aux événements',
  },
  description: {
    en: 'Delivers the shop’s events (order.placed, or every event under a prefix such as order.*) to the app’s own service, signed and at least once.',
    de: 'Liefert die Ereignisse des Shops (order.placed oder alle Ereignisse unter einem Präfix wie order.*) signiert und mindestens einmal an den eigenen Dienst der App.',
    es: 'Entrega los eventos de la tienda (order.placed, o todos los eventos bajo un prefijo como order.*) al servicio propio de la app, firmados y al menos una vez.',
    fr: 'Livre les événements de la boutique (order.placed, ou tous les événements sous un préfixe comme order.*) au service propre de l’application, signés et au moins une fois.',
  },
  questions: {
    app_id: appIdQuestion,
    name: nameQuestion,
    events: question({
      type: 'events',
      schema: v.optional(v.pipe(v.array(Subscription), v.minLength(1), v.maxLength(L.subscriptions)), () => [
        'order.placed',
      ]),
      label: { en: 'Events', de: 'Ereignisse', es: 'Eventos', fr: 'Événements' },
      help: {
        en: '1-32 event names (dot-separated lowercase words, e.g. order.placed) or prefixes ending in .* (e.g. order.*).',
        de: '1–32 Ereignisnamen (durch Punkte getrennte Wörter in Kleinbuchstaben, z. B. order.placed) oder Präfixe mit .* am Ende (z. B. order.*).',
        es: '1-32 nombres de evento (palabras en minúsculas separadas por puntos, p. ej. order.placed) o prefijos terminados en .* (p. ej. order.*).',
        fr: '1 à 32 noms d’événement (mots en minuscules séparés par des points, p. ex. order.placed) ou préfixes terminés par .* (p. ex. order.*).',
      },
    }),
  },
  check(answers, report) {
    checkUnique(answers.events, '/events', report);
  },
  generate(answers) {
    return { manifest: appDraft(answers, { subscriptions: [...answers.events] }), module: null };
  },
});
