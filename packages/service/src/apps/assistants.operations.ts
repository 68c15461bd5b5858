import {
  ASSISTANT_IDS,
  type AssistantOutput,
  diffManifests,
  listAssistants,
  type Manifest,
  runAssistant,
} from '@cartwright/app-manifest';
import { type Executor, findApp } from '@cartwright/repository';
import * as v from 'valibot';
import { actorOf } from '../kernel/auth.ts';
import { fail, ok, type Result } from '../kernel/errors.ts';
import { type AnyOperation, defineOperation } from '../kernel/registry.ts';
import { LANGUAGES, Revision } from '../kernel/schemas.ts';
import { installApp, manifestOf } from './lifecycle.ts';
import { AppView, appView } from './operations.ts';

// The nine app assistants over HTTP and MCP (issue 17, decision 0042): their questions in a
// language, a preview of what answers generate (the manifest, its module, and the compatibility
// diff against the installed version), and generate-and-install in one step. The assistants
// themselves are pure (`@cartwright/app-manifest`); regenerating an installed app passes its
// installed manifest, so actions keep their access settings (spec Versioning 5).

const AssistantId = v.picklist(ASSISTANT_IDS);

/** Answers are checked by the assistant's own schema, which answers pointers under `/answers`. */
const Answers = v.record(v.pipe(v.string(), v.maxLength(64)), v.unknown());

const Question = v.object({
  id: v.string(),
  type: v.string(),
  label: v.string(),
  help: v.string(),
  required: v.boolean(),
  default: v.optional(v.unknown()),
  choices: v.optional(v.array(v.object({ value: v.string(), label: v.string() }))),
});

const Diff = v.object({
  compatible: v.boolean(),
  unchanged: v.boolean(),
  reasons: v.array(v.object({ code: v.string(), pointer: v.string(), message: v.string() })),
});

export const listAppAssistants = defineOperation({
  name: 'apps.assistants.list',
  summary:
    'The nine app assistants (frontend, admin, combined, payment, shipping, integration, subscriber, webhook, schedule), each with its questions, labels and help texts in `language` (en, de, es or fr; default en).',
  http: { method: 'GET', path: '/api/apps/assistants' },
  permission: 'apps.read',
  readOnly: true,
  input: v.object({ language: v.optional(v.picklist(LANGUAGES), 'en') }),
  output: v.object({
    items: v.array(
      v.object({ id: v.string(), title: v.string(), description: v.string(), questions: v.array(Question) }),
    ),
  }),
  handler: (_context, input) =>
    Promise.resolve(
      ok({
        items: listAssistants(input.language).map((assistant) => ({
          ...assistant,
          questions: assistant.questions.map(({ choices, ...question }) => ({
            ...question,
            ...(choices ? { choices: [...choices] } : {}),
          })),
        })),
      }),
    ),
});

/** What answers generate for this shop: against the installed app of the same id, if any. */
async function generate(
  executor: Executor,
  tenantId: string,
  assistant: (typeof ASSISTANT_IDS)[number],
  answers: Record<string, unknown>,
): Promise<Result<{ output: AssistantOutput; installed: Manifest | null; revision: number }>> {
  const appId = typeof answers.app_id === 'string' ? answers.app_id : null;
  const current = appId ? await findApp(executor, tenantId, appId) : undefined;
  const installed = current ? manifestOf(current) : null;
  const generated = runAssistant(assistant, answers, installed ?? undefined);
  if (!generated.ok) {
    return fail(
      'VALIDATION_FAILED',
      `The answers do not fit the ${assistant} assistant: ${generated.detail}`,
      {
        errors: generated.issues.map((issue) => ({
          pointer: `/answers${issue.pointer}`,
          message: issue.message,
        })),
      },
    );
  }
  return ok({ output: generated.value, installed, revision: current?.revision ?? 0 });
}

export const previewAppAssistant = defineOperation({
  name: 'apps.assistants.preview',
  summary:
    'Generates the manifest (and module, when an action runs in one) an assistant makes of `answers`, without installing it. When the shop has an app of the same id installed, the manifest is its next version (actions keep their access settings) and `diff` says whether it is a compatible upgrade; `revision` is what `apps.assistants.install` takes. `servicesToConfigure` lists whether the app needs its external service configured by the operator (APP_SERVICES).',
  http: { method: 'POST', path: '/api/apps/assistants/:assistant/preview' },
  permission: 'apps.read',
  readOnly: true,
  input: v.strictObject({ assistant: AssistantId, answers: Answers }),
  output: v.object({
    manifest: v.record(v.string(), v.unknown()),
    module: v.nullable(v.string()),
    revision: v.number(),
    installedVersion: v.nullable(v.string()),
    diff: v.nullable(Diff),
    externalService: v.object({ needed: v.boolean(), configured: v.boolean() }),
  }),
  async handler({ services, tenantId }, input) {
    const generated = await generate(services.database.db, tenantId, input.assistant, input.answers);
    if (!generated.ok) return generated;
    const { output, installed, revision } = generated.value;
    const diff = installed ? diffManifests(installed, output.manifest) : null;
    const needed =
      output.manifest.actions.some((action) => action.kind === 'service' && action.runtime === 'external') ||
      output.manifest.subscriptions.length > 0;
    return ok({
      manifest: output.manifest as unknown as Record<string, unknown>,
      module: output.module,
      revision,
      installedVersion: installed?.version ?? null,
      diff: diff
        ? { compatible: diff.compatible, unchanged: diff.unchanged, reasons: [...diff.reasons] }
        : null,
      externalService: { needed, configured: services.appServices.isConfigured(output.manifest.id) },
    });
  },
});

export const installAppAssistant = defineOperation({
  name: 'apps.assistants.install',
  summary:
    'Generates an app from an assistant’s `answers` and installs it (revision 0) or upgrades the installed app of the same id (its revision) in one step, exactly as `apps.install` would take the generated manifest and module. Actions of the installed version keep their `mcp` flags and the merchant’s access settings.',
  http: { method: 'POST', path: '/api/apps/assistants/:assistant/install' },
  permission: 'apps.manage',
  readOnly: false,
  input: v.strictObject({ assistant: AssistantId, answers: Answers, revision: Revision }),
  output: v.object({ change: v.picklist(['installed', 'upgraded', 'unchanged']), app: AppView }),
  async handler({ services, tenantId, principal }, input) {
    const installed = await services.database.transaction(async (tx) => {
      const generated = await generate(tx, tenantId, input.assistant, input.answers);
      if (!generated.ok) return generated;
      const { manifest, module } = generated.value.output;
      return installApp(tx, services, tenantId, actorOf(principal), {
        appId: manifest.id,
        revision: input.revision,
        manifest,
        module: module ?? undefined,
      });
    });
    return installed.ok
      ? ok({ change: installed.value.change, app: appView(installed.value.app) })
      : installed;
  },
});

export const appAssistantOperations: readonly AnyOperation[] = [
  listAppAssistants,
  previewAppAssistant,
  installAppAssistant,
];
