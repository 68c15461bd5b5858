import { appDraft, defineAssistant } from './definition.ts';
import { actionTexts } from './entity-app.ts';
import type { ActionText } from './labels.ts';
import { appIdQuestion, cronQuestion, nameQuestion } from './questions.ts';

const TICK_TEXT: ActionText = {
  label: { en: 'Scheduled run', de: 'Geplanter Lauf', es: 'Ejecución programada', fr: 'Exécution planifiée' },
  description: {
    en: 'Runs at every due time of the schedule and emits an event for flows or the app’s service.',
    de: 'Läuft zu jedem fälligen Zeitpunkt des Zeitplans und löst ein Ereignis für Flows oder den Dienst der App aus.',
    es: 'Se ejecuta en cada momento previsto de la programación y emite un evento para flujos o el servicio de la app.',
    fr: 'S’exécute à chaque échéance de la planification et émet un événement pour les flux ou le service de l’application.',
  },
};

/** The module the scheduled action runs: it answers that it ran, which the event then carries. */
export const TICK_MODULE = [
  '// The scheduled task, written by the schedule assistant. The sandbox calls `tick` at every due',
  '// time of the schedule; the event app.<app>.tick carries what it answers.',
  'export function tick() {',
  '  return { ran: true };',
  '}',
  '',
].join('\n');

/** An event on a schedule, from a module action, for flows or the app's service to act on. */
export const schedule = defineAssistant({
  id: 'schedule',
  title: { en: 'Scheduled task', de: 'Geplante Aufgabe', es: 'Tarea programada', fr: 'Tâche planifiée' },
  description: {
    en: 'Emits an event on a schedule (a six-field UTC cron) from a small sandboxed module, for flows or the app’s service to act on.',
    de: 'Löst nach Zeitplan (ein sechsfeldiger UTC-Cron) ein Ereignis aus einem kleinen isolierten Modul aus, auf das Flows oder der Dienst der App reagieren.',
    es: 'Emite un evento según una programación (un cron UTC de seis campos) desde un pequeño módulo aislado, para que actúen los flujos o el servicio de la app.',
    fr: 'Émet un événement selon une planification (un cron UTC à six champs) depuis un petit module isolé, pour que les flux ou le service de l’application agissent.',
  },
  questions: {
    app_id: appIdQuestion,
    name: nameQuestion,
    cron: cronQuestion('0 0 6 * * *', {
      en: 'When the task runs; every day at 06:00 UTC when not answered.',
      de: 'Wann die Aufgabe läuft; ohne Antwort täglich um 06:00 UTC.',
      es: 'Cuándo se ejecuta la tarea; sin respuesta, cada día a las 06:00 UTC.',
      fr: 'Quand la tâche s’exécute ; sans réponse, chaque jour à 06:00 UTC.',
    }),
  },
  generate(answers) {
    return {
      manifest: appDraft(answers, {
        actions: [
          {
            id: 'tick',
            kind: 'service',
            runtime: 'module',
            export: 'tick',
            ...actionTexts(TICK_TEXT),
            mcp: false,
            emits: true,
            input: [],
            output: [
              {
                name: 'ran',
                type: 'boolean',
                required: true,
                label: { en: 'Ran', de: 'Ausgeführt', es: 'Ejecutado', fr: 'Exécuté' },
              },
            ],
          },
        ],
        schedules: [
          {
            id: 'tick',
            label: { en: answers.name },
            cron: answers.cron,
            action: 'tick',
            input: {},
            enabled: true,
          },
        ],
      }),
      module: TICK_MODULE,
    };
  },
});
