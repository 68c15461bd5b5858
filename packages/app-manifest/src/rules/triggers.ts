import { actionInputShape } from '../access.ts';
import { cronProblem } from '../cron.ts';
import type { ReportIssue } from '../issues.ts';
import type { Action, Entity, Schedule, Webhook } from '../schema.ts';
import { checkValue } from '../values.ts';
import { reportDuplicates } from './duplicates.ts';

/** Schedules and incoming webhooks start an action that emits; its input is what they deliver. */
const TRIGGERED_KINDS = ['create', 'service'] as const;

function checkTriggeredAction(
  name: string,
  at: string,
  actions: ReadonlyMap<string, Action>,
  report: ReportIssue,
): Action | null {
  const action = actions.get(name);
  if (!action) {
    report('MANIFEST_UNKNOWN_REFERENCE', at, `no action "${name}" in this app`);
    return null;
  }
  if (!(TRIGGERED_KINDS as readonly string[]).includes(action.kind)) {
    report(
      'MANIFEST_ACTION_KIND',
      at,
      `a create or service action takes a delivered input; "${name}" is ${action.kind}`,
    );
    return null;
  }
  if (!action.emits) {
    report('MANIFEST_ACTION_NOT_EMITTING', at, `"${name}" must declare emits: true to be started this way`);
  }
  return action;
}

/** Schedule ids, cron expressions, the emitting action and its input. */
export function checkSchedules(
  schedules: readonly Schedule[],
  actions: ReadonlyMap<string, Action> | null,
  entities: readonly Entity[] | null,
  report: ReportIssue,
): void {
  reportDuplicates(
    schedules.map((schedule) => schedule.id),
    (index) => `/schedules/${index}/id`,
    'schedule',
    report,
  );
  schedules.forEach((schedule, index) => {
    const at = `/schedules/${index}`;
    const problem = cronProblem(schedule.cron);
    if (problem) report('MANIFEST_CRON_INVALID', `${at}/cron`, problem);
    if (!actions) return;
    const action = checkTriggeredAction(schedule.action, `${at}/action`, actions, report);
    const shape = action && entities ? actionInputShape({ entities }, action) : null;
    if (!shape) return;
    const checked = checkValue(shape, schedule.input);
    if (checked.ok) return;
    for (const issue of checked.issues) {
      report('MANIFEST_SCHEDULE_INPUT', `${at}/input${issue.pointer}`, `${issue.message} (${issue.code})`);
    }
  });
}

/** Webhook ids and the emitting action whose input checks the body. */
export function checkWebhooks(
  webhooks: readonly Webhook[],
  actions: ReadonlyMap<string, Action> | null,
  report: ReportIssue,
): void {
  reportDuplicates(
    webhooks.map((webhook) => webhook.id),
    (index) => `/webhooks/${index}/id`,
    'webhook',
    report,
  );
  if (!actions) return;
  webhooks.forEach((webhook, index) => {
    checkTriggeredAction(webhook.action, `/webhooks/${index}/action`, actions, report);
  });
}
