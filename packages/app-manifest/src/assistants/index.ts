import { fail, ok, type Success } from '@cartwright/commerce';
import * as v from 'valibot';
import { parseManifest } from '../parse.ts';
import { LABEL_LANGUAGES, type Manifest } from '../schema.ts';
import { isPlainObject } from '../values.ts';
import { admin } from './admin.ts';
import { combined } from './combined.ts';
import {
  ASSISTANT_IDS,
  type Assistant,
  type AssistantId,
  type AssistantIssue,
  type AssistantLanguage,
  type AssistantOutput,
  type AssistantQuestion,
  type AssistantRefusal,
  type AssistantSummary,
  type Question,
} from './definition.ts';
import { frontend } from './frontend.ts';
import { integration } from './integration.ts';
import { payment } from './payment.ts';
import { keepInstalledSettings } from './regenerate.ts';
import { schedule } from './schedule.ts';
import { shipping } from './shipping.ts';
import { subscriber } from './subscriber.ts';
import { webhook } from './webhook.ts';

const ASSISTANTS: Readonly<Record<AssistantId, Assistant>> = {
  frontend,
  admin,
  combined,
  payment,
  shipping,
  integration,
  subscriber,
  webhook,
  schedule,
};

function languageOf(language: string): AssistantLanguage {
  return (LABEL_LANGUAGES as readonly string[]).includes(language) ? (language as AssistantLanguage) : 'en';
}

function questionIn(id: string, question: Question, language: AssistantLanguage): AssistantQuestion {
  const isOptional = question.schema.type === 'optional';
  const fallback: unknown = isOptional ? v.getDefault(question.schema) : undefined;
  return {
    id,
    type: question.type,
    label: question.label[language],
    help: question.help[language],
    required: !isOptional,
    ...(fallback === undefined ? {} : { default: fallback }),
    ...(question.choices
      ? {
          choices: question.choices.map((choice) => ({ value: choice.value, label: choice.label[language] })),
        }
      : {}),
  };
}

/** Every assistant with its questions in `language` (an unknown language answers in `en`). */
export function listAssistants(language: string): AssistantSummary[] {
  const lang = languageOf(language);
  return ASSISTANT_IDS.map((id) => {
    const assistant = ASSISTANTS[id];
    return {
      id,
      title: assistant.title[lang],
      description: assistant.description[lang],
      questions: Object.entries(assistant.questions).map(([key, question]) =>
        questionIn(key, question, lang),
      ),
    };
  });
}

function refusal(issues: readonly AssistantIssue[]): AssistantRefusal {
  const first = issues[0]!;
  return { ...fail(first.code, `${first.pointer || '/'}: ${first.message}`), issues };
}

/**
 * Checks `answers` against the assistant's questions and generates the app: `parseManifest`'s
 * answer (defaults filled in) and, when an action runs in a module, the module source. With
 * `previous`, the installed manifest of the same app, it is previous's next minor version and keeps
 * the installer's settings of the actions it still has (`mcp`, `public` where either is allowed,
 * AI tools, schedules' `enabled`); otherwise version 1.0.0 with every action `mcp: false`.
 */
export function runAssistant(
  id: AssistantId,
  answers: unknown,
  previous?: Manifest,
): Success<AssistantOutput> | AssistantRefusal {
  const assistant = ASSISTANTS[id];
  if (!assistant) throw new TypeError(`no assistant "${String(id)}"`);
  const drafted = assistant.draft(answers);
  const issues: AssistantIssue[] = [];
  const appId = isPlainObject(answers) ? answers.app_id : undefined;
  if (previous && typeof appId === 'string' && appId !== previous.id) {
    issues.push({
      code: 'ASSISTANT_ANSWERS_INVALID',
      pointer: '/app_id',
      message: `this regenerates the installed app "${previous.id}", so app_id must be "${previous.id}"`,
    });
  }
  if (!drafted.ok) issues.push(...drafted.issues);
  if (issues.length > 0 || !drafted.ok) return refusal(issues);

  // Answers that pass their checks make a valid manifest; a refused one is a bug in the assistant.
  const generated = parseManifest(drafted.generated.manifest);
  if (!generated.ok)
    throw new Error(`the ${id} assistant generated an invalid manifest: ${generated.detail}`);
  if (!previous) return ok({ manifest: generated.value, module: drafted.generated.module });
  const regenerated = parseManifest(keepInstalledSettings(generated.value, previous));
  if (!regenerated.ok) {
    throw new Error(`the ${id} assistant regenerated an invalid manifest: ${regenerated.detail}`);
  }
  return ok({ manifest: regenerated.value, module: drafted.generated.module });
}
