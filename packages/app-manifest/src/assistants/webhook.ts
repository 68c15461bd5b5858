import { appDraft, defineAssistant } from './definition.ts';
import { actionTexts } from './entity-app.ts';
import { checkFieldAnswers, manifestField } from './fields.ts';
import type { ActionText } from './labels.ts';
import { appIdQuestion, nameQuestion, requiredFieldsQuestion, webhookQuestion } from './questions.ts';

const RECEIVE_TEXT: ActionText = {
  label: { en: 'Receive', de: 'Empfangen', es: 'Recibir', fr: 'Recevoir' },
  description: {
    en: 'Takes the webhook’s checked body and emits it as an event for flows or the app’s service.',
    de: 'Nimmt den geprüften Body des Webhooks entgegen und löst ihn als Ereignis für Flows oder den Dienst der App aus.',
    es: 'Recibe el cuerpo comprobado del webhook y lo emite como evento para flujos o el servicio de la app.',
    fr: 'Reçoit le corps vérifié du webhook et l’émet comme événement pour les flux ou le service de l’application.',
  },
};

/** A signed incoming webhook whose body, checked against the answered fields, becomes an event. */
export const webhook = defineAssistant({
  id: 'webhook',
  title: {
    en: 'Signed incoming webhook',
    de: 'Signierter eingehender Webhook',
    es: 'Webhook entrante firmado',
    fr: 'Webhook entrant signé',
  },
  description: {
    en: 'Accepts a signed JSON body from another system at the app’s webhook address, checks it against your fields and emits an event for flows or the app’s service.',
    de: 'Nimmt einen signierten JSON-Body eines anderen Systems an der Webhook-Adresse der App an, prüft ihn gegen Ihre Felder und löst ein Ereignis für Flows oder den Dienst der App aus.',
    es: 'Acepta un cuerpo JSON firmado de otro sistema en la dirección del webhook de la app, lo comprueba con sus campos y emite un evento para flujos o el servicio de la app.',
    fr: 'Accepte un corps JSON signé d’un autre système à l’adresse du webhook de l’application, le vérifie avec vos champs et émet un événement pour les flux ou le service de l’application.',
  },
  questions: {
    app_id: appIdQuestion,
    name: nameQuestion,
    webhook: webhookQuestion('inbound'),
    fields: requiredFieldsQuestion({
      en: 'The 1-20 members of the JSON body the sender posts.',
      de: 'Die 1–20 Felder des JSON-Bodys, den der Absender sendet.',
      es: 'Los 1-20 miembros del cuerpo JSON que envía el emisor.',
      fr: 'Les 1 à 20 membres du corps JSON que l’expéditeur envoie.',
    }),
  },
  check(answers, report) {
    checkFieldAnswers(answers.fields, '/fields', { kind: 'shape', taken: [] }, report);
  },
  generate(answers) {
    return {
      manifest: appDraft(answers, {
        actions: [
          {
            id: 'receive',
            kind: 'service',
            runtime: 'external',
            ...actionTexts(RECEIVE_TEXT),
            mcp: false,
            emits: true,
            input: answers.fields.map(manifestField),
            output: [],
          },
        ],
        webhooks: [{ id: answers.webhook, label: { en: answers.name }, action: 'receive' }],
      }),
      module: null,
    };
  },
});
