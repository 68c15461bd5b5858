import { fail, ok, type Success } from '@cartwright/commerce';
import * as v from 'valibot';
import type { ManifestIssue, ManifestRefusal, ReportIssue } from './issues.ts';
import { pointerOf } from './pointer.ts';
import { checkActions, checkTools } from './rules/actions.ts';
import { checkBlocks } from './rules/blocks.ts';
import { checkPayment, checkShipping } from './rules/contracts.ts';
import { reportDuplicates } from './rules/duplicates.ts';
import { checkEntities } from './rules/entities.ts';
import { checkPanels } from './rules/panels.ts';
import { checkSchedules, checkWebhooks } from './rules/triggers.ts';
import { Manifest } from './schema.ts';
import { isPlainObject } from './values.ts';

type Section = keyof typeof Manifest.entries;
const SECTIONS = Object.keys(Manifest.entries) as Section[];

function pathOf(issue: v.BaseIssue<unknown>): (string | number)[] {
  return (issue.path ?? []).map((item) => item.key as string | number);
}

// valibot's wording for the two mistakes people make most, said plainly.
function messageOf(issue: v.BaseIssue<unknown>, path: readonly (string | number)[]): string {
  const key = path.at(-1);
  if (issue.kind === 'schema' && issue.expected === 'never') return `unknown key "${key}"`;
  if (issue.kind === 'schema' && issue.received === 'undefined') return `missing required key "${key}"`;
  return issue.message;
}

/** The first of each id, so a duplicate (reported once) does not hide the declaration it repeats. */
function byId<T extends { readonly id: string }>(items: readonly T[]): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) if (!map.has(item.id)) map.set(item.id, item);
  return map;
}

/**
 * The rules between parts of the manifest. Each runs when the sections it reads passed the schema,
 * so one broken section does not hide the problems of the others.
 */
function crossCheck(manifest: Partial<Manifest>, report: ReportIssue): void {
  const entities = manifest.entities ? byId(manifest.entities) : null;
  const actions = manifest.actions ? byId(manifest.actions) : null;
  const permissions = manifest.permissions ? new Set(manifest.permissions) : null;
  if (manifest.permissions) {
    reportDuplicates(manifest.permissions, (index) => `/permissions/${index}`, 'permission', report);
  }
  if (manifest.entities && entities) checkEntities(manifest.entities, entities, permissions, report);
  if (manifest.actions) checkActions(manifest.actions, entities, permissions, report);
  if (manifest.blocks) checkBlocks(manifest.blocks, actions, entities, permissions, report);
  if (manifest.intelligence && actions) checkTools(manifest.intelligence.tools, actions, report);
  if (manifest.schedules) checkSchedules(manifest.schedules, actions, manifest.entities ?? null, report);
  if (manifest.webhooks) checkWebhooks(manifest.webhooks, actions, report);
  if (manifest.payment && actions) checkPayment(manifest.payment, actions, report);
  if (manifest.shipping && actions) checkShipping(manifest.shipping, actions, report);
  if (manifest.admin) checkPanels(manifest.admin.panels, report);
}

/**
 * Reads an app manifest (API 1) and answers it with every default filled in, or every problem
 * found, each with its code and the JSON pointer of the offending value. Store the answered value:
 * it is what the diff, the value checks and the service read.
 */
export function parseManifest(input: unknown): Success<Manifest> | ManifestRefusal {
  const issues: ManifestIssue[] = [];
  const report: ReportIssue = (code, pointer, message) => issues.push({ code, pointer, message });
  if (!isPlainObject(input)) {
    report('MANIFEST_INVALID', '', 'a manifest is a JSON object');
  } else {
    for (const key of Object.keys(input)) {
      if (!Object.hasOwn(Manifest.entries, key))
        report('MANIFEST_INVALID', pointerOf([key]), `unknown key "${key}"`);
    }
    const sections: Partial<Record<Section, unknown>> = {};
    for (const section of SECTIONS) {
      const parsed = v.safeParse(Manifest.entries[section], input[section]);
      if (parsed.success) {
        sections[section] = parsed.output;
        continue;
      }
      for (const issue of parsed.issues) {
        const path = [section, ...pathOf(issue)];
        report('MANIFEST_INVALID', pointerOf(path), messageOf(issue, path));
      }
    }
    crossCheck(sections as Partial<Manifest>, report);
    if (issues.length === 0) return ok(sections as Manifest);
  }
  const first = issues[0]!;
  return { ...fail(first.code, `${first.pointer || '/'}: ${first.message}`), issues };
}
