import { CONTEXT_CORE_REFERENCE, CORE_REFERENCE_PERMISSION, MOUNT_CONTEXT } from '../access.ts';
import type { ReportIssue } from '../issues.ts';
import {
  type Action,
  type ActionKind,
  type AppPermission,
  type Block,
  type BlockKind,
  type Entity,
  type Field,
  type Mount,
  STOREFRONT_MOUNTS,
} from '../schema.ts';
import { reportDuplicates } from './duplicates.ts';

/** The action kinds each block kind runs: tables and cards read a list, forms save, action blocks run a service. */
export const BLOCK_ACTION_KINDS: Readonly<Record<BlockKind, readonly ActionKind[]>> = {
  table: ['list'],
  card: ['list'],
  form: ['create', 'update'],
  action: ['service'],
};

/** The fields a block shows or binds: its entity's, or a service action's input. */
function blockFields(action: Action, entities: ReadonlyMap<string, Entity>): readonly Field[] | null {
  if (action.kind === 'service') return action.input;
  return entities.get(action.entity)?.fields ?? null;
}

/** Block ids, mounts and their permissions, the action each runs, its fields and its context binding. */
export function checkBlocks(
  blocks: readonly Block[],
  actions: ReadonlyMap<string, Action> | null,
  entities: ReadonlyMap<string, Entity> | null,
  permissions: ReadonlySet<AppPermission> | null,
  report: ReportIssue,
): void {
  reportDuplicates(
    blocks.map((block) => block.id),
    (index) => `/blocks/${index}/id`,
    'block',
    report,
  );
  blocks.forEach((block, index) => {
    const at = `/blocks/${index}`;
    const mountKey = MOUNT_CONTEXT[block.mount];
    const permission = CORE_REFERENCE_PERMISSION[CONTEXT_CORE_REFERENCE[mountKey]];
    const storefront = (STOREFRONT_MOUNTS as readonly Mount[]).includes(block.mount);
    if (!storefront && permissions && !permissions.has(permission)) {
      report(
        'MANIFEST_PERMISSION_MISSING',
        `${at}/mount`,
        `a block on ${block.mount} needs the permission ${permission}`,
      );
    }
    const binding = block.contextBinding;
    if (binding && binding.key !== mountKey) {
      report(
        'MANIFEST_BINDING_MISMATCH',
        `${at}/contextBinding/key`,
        `${block.mount} hands its blocks ${mountKey}, not ${binding.key}`,
      );
    }
    if (!actions) return;
    const action = actions.get(block.action);
    if (!action) {
      report('MANIFEST_UNKNOWN_REFERENCE', `${at}/action`, `no action "${block.action}" in this app`);
      return;
    }
    if (storefront && !action.public) {
      report(
        'MANIFEST_PUBLIC_ACTION',
        `${at}/action`,
        `a block on ${block.mount} is shown to visitors, so "${action.id}" must be public`,
      );
    }
    const kinds = BLOCK_ACTION_KINDS[block.kind];
    if (!kinds.includes(action.kind)) {
      report(
        'MANIFEST_ACTION_KIND',
        `${at}/action`,
        `a ${block.kind} block runs a ${kinds.join(' or ')} action; "${action.id}" is ${action.kind}`,
      );
      return;
    }
    const fields = entities ? blockFields(action, entities) : null;
    // An unknown entity is reported once, on the action.
    if (!fields) return;
    const names = new Set(fields.map((field) => field.name));
    if (block.kind !== 'action' && block.fields) {
      reportDuplicates(block.fields, (position) => `${at}/fields/${position}`, 'block field', report);
      block.fields.forEach((name, position) => {
        if (!names.has(name)) {
          report(
            'MANIFEST_UNKNOWN_REFERENCE',
            `${at}/fields/${position}`,
            `"${action.id}" has no field "${name}"`,
          );
        }
      });
    }
    // A create form that leaves a required field out (neither shown nor bound) can never save.
    if (block.kind === 'form' && action.kind === 'create' && block.fields) {
      const shown = new Set([...block.fields, ...(binding ? [binding.field] : [])]);
      for (const field of fields) {
        if (field.required && !shown.has(field.name)) {
          report(
            'MANIFEST_FORM_INCOMPLETE',
            `${at}/fields`,
            `the form creates "${action.entity}" rows but leaves the required field "${field.name}" out`,
          );
        }
      }
    }
    if (!binding) return;
    const bound = fields.find((field) => field.name === binding.field);
    if (!bound) {
      const where = action.kind === 'service' ? 'input of' : 'entity of';
      report(
        'MANIFEST_UNKNOWN_REFERENCE',
        `${at}/contextBinding/field`,
        `the ${where} "${action.id}" has no field "${binding.field}"`,
      );
      return;
    }
    const core = CONTEXT_CORE_REFERENCE[binding.key];
    if (bound.type !== 'string' || bound.coreReference !== core) {
      report(
        'MANIFEST_BINDING_MISMATCH',
        `${at}/contextBinding/field`,
        `binding ${binding.key} needs a field with coreReference "${core}"; "${bound.name}" has none`,
      );
    } else if (action.kind === 'list' && !('indexable' in bound && bound.indexable)) {
      report(
        'MANIFEST_BINDING_MISMATCH',
        `${at}/contextBinding/field`,
        `a ${block.kind} block filters its rows by "${bound.name}", so the field must be indexable`,
      );
    }
  });
}
