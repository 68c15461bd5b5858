import type { Failure } from '@cartwright/commerce';
import * as v from 'valibot';
import { pointerOf } from '../pointer.ts';
import { type LABEL_LANGUAGES, MANIFEST_API_VERSION, type Manifest } from '../schema.ts';
import { isPlainObject } from '../values.ts';

/** The nine assistants, in the order they are listed. */
export const ASSISTANT_IDS = [
  'frontend',
  'admin',
  'combined',
  'payment',
  'shipping',
  'integration',
  'subscriber',
  'webhook',
  'schedule',
] as const;
export const AssistantId = v.picklist(ASSISTANT_IDS);
export type AssistantId = v.InferOutput<typeof AssistantId>;

/** The languages the assistants ask in: the languages a manifest label carries. */
export type AssistantLanguage = (typeof LABEL_LANGUAGES)[number];

/** A text in every language the assistants speak; leaving one out fails the type check. */
export type Text = Readonly<Record<AssistantLanguage, string>>;

export type QuestionType =
  | 'string'
  | 'text'
  | 'integer'
  | 'boolean'
  | 'choice'
  | 'choices'
  | 'fields'
  | 'cron'
  | 'events';

/**
 * One question of an assistant: the schema of its answer and what people are shown. Whether it is
 * required and its default are read from the schema, so the two cannot disagree.
 */
export interface Question<S extends v.GenericSchema = v.GenericSchema> {
  readonly type: QuestionType;
  readonly schema: S;
  readonly label: Text;
  readonly help: Text;
  readonly choices?: readonly { readonly value: string; readonly label: Text }[];
}

/** One question as a UI or MCP client shows it, in one language. */
export interface AssistantQuestion {
  /** The answers key. */
  readonly id: string;
  readonly type: QuestionType;
  readonly label: string;
  readonly help: string;
  readonly required: boolean;
  readonly default?: unknown;
  readonly choices?: readonly { readonly value: string; readonly label: string }[];
}

export interface AssistantSummary {
  readonly id: AssistantId;
  readonly title: string;
  readonly description: string;
  readonly questions: readonly AssistantQuestion[];
}

export interface AssistantOutput {
  /** `parseManifest`'s answer: every default filled in. */
  readonly manifest: Manifest;
  /** The module source when an action runs in a module, else null. */
  readonly module: string | null;
}

/** Every code `runAssistant` refuses with. */
export const ASSISTANT_ISSUE_CODES = ['ASSISTANT_ANSWERS_INVALID'] as const;
export type AssistantIssueCode = (typeof ASSISTANT_ISSUE_CODES)[number];

export interface AssistantIssue {
  readonly code: AssistantIssueCode;
  /** JSON pointer into the answers as given. */
  readonly pointer: string;
  readonly message: string;
}

/** Refused answers: `code` and `detail` name the first issue, `issues` lists them all. */
export interface AssistantRefusal extends Failure<AssistantIssueCode> {
  readonly issues: readonly AssistantIssue[];
}

/** A manifest as an assistant writes it, before `parseManifest` fills in the defaults. */
export type ManifestDraft = v.InferInput<typeof Manifest>;

/** The version an app's first generation gets; regenerating raises the minor. */
export const FIRST_VERSION = '1.0.0';

/** The draft of an app: its id and name as answered, the first version, and the rest. */
export function appDraft(
  answers: { readonly app_id: string; readonly name: string },
  parts: Omit<ManifestDraft, 'apiVersion' | 'id' | 'version' | 'name'>,
): ManifestDraft {
  return {
    apiVersion: MANIFEST_API_VERSION,
    id: answers.app_id,
    version: FIRST_VERSION,
    name: { en: answers.name },
    ...parts,
  };
}

export interface Generated {
  readonly manifest: ManifestDraft;
  readonly module: string | null;
}

/** How an assistant's own rules report a problem: a pointer into the answers and a sentence. */
export type ReportAnswer = (pointer: string, message: string) => void;

type Questions = Readonly<Record<string, Question>>;
type AnswersOf<Q extends Questions> = { readonly [K in keyof Q]: v.InferOutput<Q[K]['schema']> };

/** An assistant with its answers' types closed over: what the registry holds. */
export interface Assistant {
  readonly id: AssistantId;
  readonly title: Text;
  readonly description: Text;
  /** By answers key, in the order they are asked. */
  readonly questions: Questions;
  /** The draft the answers generate, or every problem found in them. */
  readonly draft: (
    answers: unknown,
  ) =>
    | { readonly ok: true; readonly generated: Generated }
    | { readonly ok: false; readonly issues: readonly AssistantIssue[] };
}

export interface AssistantDefinition<Q extends Questions> {
  readonly id: AssistantId;
  readonly title: Text;
  readonly description: Text;
  readonly questions: Q;
  /**
   * The rules between answers that a schema of one answer cannot state. `given` says whether the
   * answers named a key (before defaults), for answers that only fit some of the others.
   */
  readonly check?: (answers: AnswersOf<Q>, report: ReportAnswer, given: (key: string) => boolean) => void;
  /** The manifest the checked answers make. Answers that pass `check` always make a valid one. */
  readonly generate: (answers: AnswersOf<Q>) => Generated;
}

// valibot's wording for the two mistakes people make most, said plainly.
function messageOf(issue: v.BaseIssue<unknown>, path: readonly (string | number)[]): string {
  const key = path.at(-1);
  if (issue.kind === 'schema' && issue.expected === 'never') return `unknown key "${key}"`;
  if (issue.kind === 'schema' && issue.received === 'undefined') return `missing required key "${key}"`;
  return issue.message;
}

/** An assistant from its questions: the answers' schema is their schemas, in their order. */
export function defineAssistant<const Q extends Questions>(definition: AssistantDefinition<Q>): Assistant {
  const entries = Object.fromEntries(
    Object.entries(definition.questions).map(([key, question]) => [key, question.schema]),
  );
  const schema = v.strictObject(entries);
  return {
    id: definition.id,
    title: definition.title,
    description: definition.description,
    questions: definition.questions,
    draft(answers) {
      const issues: AssistantIssue[] = [];
      const report: ReportAnswer = (pointer, message) =>
        issues.push({ code: 'ASSISTANT_ANSWERS_INVALID', pointer, message });
      const parsed = v.safeParse(schema, answers);
      if (!parsed.success) {
        for (const issue of parsed.issues) {
          const path = (issue.path ?? []).map((item) => item.key as string | number);
          report(pointerOf(path), messageOf(issue, path));
        }
        return { ok: false, issues };
      }
      // The schema is built from the questions' schemas, so its output is their answers.
      const checked = parsed.output as AnswersOf<Q>;
      const given = (key: string) =>
        isPlainObject(answers) && Object.hasOwn(answers, key) && answers[key] !== undefined;
      definition.check?.(checked, report, given);
      if (issues.length > 0) return { ok: false, issues };
      return { ok: true, generated: definition.generate(checked) };
    },
  };
}

/** A question, typed by its schema (an identity, so `defineAssistant` infers the answers). */
export function question<S extends v.GenericSchema>(definition: Question<S>): Question<S> {
  return definition;
}
