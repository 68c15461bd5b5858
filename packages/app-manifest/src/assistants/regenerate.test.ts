import { describe, expect, it } from 'vitest';
import { diffManifests } from '../diff.ts';
import type { Action, Manifest } from '../schema.ts';
import type { AssistantId } from './definition.ts';
import { runAssistant } from './index.ts';
import { nextMinorVersion } from './regenerate.ts';

const FIELDS = [{ name: 'body', type: 'text', label: 'Note', required: true }];
const MORE_FIELDS = [...FIELDS, { name: 'stars', type: 'integer', label: 'Stars' }];

function generate(id: AssistantId, answers: unknown, previous?: Manifest): Manifest {
  const result = runAssistant(id, answers, previous);
  if (!result.ok) throw new Error(`${id} refused: ${JSON.stringify(result.issues)}`);
  return result.value.manifest;
}

function actionOf(manifest: Manifest, id: string): Action {
  const action = manifest.actions.find((candidate) => candidate.id === id);
  if (!action) throw new Error(`no action ${id}`);
  return action;
}

/** The installed manifest after the installer changed settings: a copy with `change` applied. */
function installedWith(manifest: Manifest, change: (copy: Manifest) => void): Manifest {
  const copy = structuredClone(manifest);
  change(copy);
  return copy;
}

const admin = {
  app_id: 'notes',
  name: 'Notes',
  fields: FIELDS,
  object: 'customer',
  mounts: ['admin.customer'],
  blocks: ['table'],
};

describe('regenerating an installed assistant app', () => {
  it('keeps the mcp flag of every action it still has; a new action is mcp: false', () => {
    const installed = installedWith(generate('admin', admin), (copy) => {
      actionOf(copy, 'list').mcp = true;
      copy.version = '1.3.2';
    });
    const next = generate('admin', { ...admin, fields: MORE_FIELDS, blocks: ['table', 'action'] }, installed);
    expect(next.version).toBe('1.4.0');
    expect(actionOf(next, 'list').mcp).toBe(true);
    expect(actionOf(next, 'get').mcp).toBe(false);
    expect(actionOf(next, 'run').mcp).toBe(false);
    expect(next.entities[0]!.fields.map((field) => field.name)).toEqual(['customer_id', 'body', 'stars']);
    expect(diffManifests(installed, next)).toEqual({ compatible: true, unchanged: false, reasons: [] });
  });

  it('keeps an absent mcp flag absent (the legacy exposure the installer had)', () => {
    const installed = installedWith(generate('admin', admin), (copy) => {
      delete actionOf(copy, 'get').mcp;
    });
    const next = generate('admin', admin, installed);
    expect('mcp' in actionOf(next, 'get')).toBe(false);
    expect(actionOf(next, 'list').mcp).toBe(false);
  });

  it('keeps public where the rules allow either, and not where they decide', () => {
    const frontend = { app_id: 'faq', name: 'FAQ', fields: FIELDS };
    const installed = installedWith(generate('frontend', frontend), (copy) => {
      actionOf(copy, 'get').public = false;
    });
    const next = generate('frontend', frontend, installed);
    expect(actionOf(next, 'get').public).toBe(false);
    // The storefront block runs list, so it stays public whatever was installed.
    expect(actionOf(next, 'list').public).toBe(true);

    const hook = { app_id: 'hook', name: 'Hook', fields: FIELDS };
    const installedHook = installedWith(generate('webhook', hook), (copy) => {
      actionOf(copy, 'receive').public = true;
    });
    expect(actionOf(generate('webhook', hook, installedHook), 'receive').public).toBe(true);
  });

  it('keeps the AI tools that still name an action, and whether each schedule is enabled', () => {
    const withButton = { ...admin, blocks: ['table', 'action'] };
    const installed = installedWith(generate('admin', withButton), (copy) => {
      copy.intelligence.tools = ['run', 'list'];
    });
    expect(generate('admin', admin, installed).intelligence.tools).toEqual(['list']);

    const nightly = { app_id: 'nightly', name: 'Nightly' };
    const paused = installedWith(generate('schedule', nightly), (copy) => {
      copy.schedules[0]!.enabled = false;
    });
    const next = generate('schedule', { ...nightly, cron: '0 0 4 * * *' }, paused);
    expect(next.schedules[0]).toMatchObject({ cron: '0 0 4 * * *', enabled: false });
  });

  it('refuses answers for another app than the installed one', () => {
    const installed = generate('admin', admin);
    const result = runAssistant('admin', { ...admin, app_id: 'other' }, installed);
    expect(result).toMatchObject({ ok: false, code: 'ASSISTANT_ANSWERS_INVALID' });
    if (result.ok) return;
    expect(result.issues.map((issue) => issue.pointer)).toEqual(['/app_id']);
  });

  it('leaves an incompatible regeneration to the upgrade check (a removed field shows in the diff)', () => {
    const installed = generate('admin', { ...admin, fields: MORE_FIELDS });
    const next = generate('admin', admin, installed);
    expect(diffManifests(installed, next).reasons.map((reason) => reason.code)).toEqual(['FIELD_REMOVED']);
  });
});

describe('nextMinorVersion', () => {
  it.each([
    ['1.0.0', '1.1.0'],
    ['1.4.2', '1.5.0'],
    ['1.4.2-rc.1', '1.5.0'],
    ['2.9.9', '2.10.0'],
    ['0.0.1', '0.1.0'],
    ['1.9007199254740993.0', '1.9007199254740994.0'],
  ])('%s → %s', (version, next) => {
    expect(nextMinorVersion(version)).toBe(next);
  });

  it('throws on text that is not a version (a bug: previous was not parsed)', () => {
    expect(() => nextMinorVersion('1.0')).toThrow(TypeError);
  });
});
