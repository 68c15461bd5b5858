import type { ReportIssue } from '../issues.ts';
import type { Action, AppPermission, Entity } from '../schema.ts';
import { reportDuplicates } from './duplicates.ts';
import { checkFields } from './fields.ts';

/**
 * Action ids, the entity each names, who may be public and who may emit, and the fields of
 * service actions' input and output.
 */
export function checkActions(
  actions: readonly Action[],
  entities: ReadonlyMap<string, Entity> | null,
  permissions: ReadonlySet<AppPermission> | null,
  report: ReportIssue,
): void {
  reportDuplicates(
    actions.map((action) => action.id),
    (index) => `/actions/${index}/id`,
    'action',
    report,
  );
  actions.forEach((action, index) => {
    const at = `/actions/${index}`;
    if (action.kind === 'service') {
      const publicAs = action.public ? 'a public action' : null;
      for (const side of ['input', 'output'] as const) {
        checkFields(
          action[side],
          `${at}/${side}`,
          { kind: 'shape', entities, permissions, publicAs },
          report,
        );
      }
      return;
    }
    const entity = entities?.get(action.entity);
    if (entities && !entity) {
      report('MANIFEST_UNKNOWN_REFERENCE', `${at}/entity`, `no entity "${action.entity}" in this app`);
    }
    const reads = action.kind === 'list' || action.kind === 'get';
    if (action.emits && reads) {
      report(
        'MANIFEST_EMITS_NOT_ALLOWED',
        `${at}/emits`,
        `a ${action.kind} action changes nothing, so emits nothing`,
      );
    }
    if (!action.public) return;
    if (!reads) {
      report(
        'MANIFEST_PUBLIC_ACTION',
        `${at}/public`,
        `a ${action.kind} action is never public: only list and get of a publicRead entity, and service actions`,
      );
    } else if (entity && !entity.publicRead) {
      report(
        'MANIFEST_PUBLIC_ACTION',
        `${at}/public`,
        `a public ${action.kind} reads a publicRead entity; "${entity.id}" is not publicRead`,
      );
    }
  });
}

/** `intelligence.tools`: each names a declared action, once. */
export function checkTools(
  tools: readonly string[],
  actions: ReadonlyMap<string, Action>,
  report: ReportIssue,
): void {
  reportDuplicates(tools, (index) => `/intelligence/tools/${index}`, 'tool', report);
  tools.forEach((tool, index) => {
    if (!actions.has(tool)) {
      report('MANIFEST_UNKNOWN_REFERENCE', `/intelligence/tools/${index}`, `no action "${tool}" in this app`);
    }
  });
}
