import { describe, expect, it } from 'vitest';
import { loyaltyManifest } from '../test/examples.ts';
import { actionInputShape, actionPermission, appEventName, entityOf, MOUNT_CONTEXT } from './access.ts';
import { parseManifest } from './parse.ts';
import { MOUNTS } from './schema.ts';

const parsed = parseManifest(loyaltyManifest());
if (!parsed.ok) throw new Error(parsed.detail);
const manifest = parsed.value;
const action = (id: string) => manifest.actions.find((candidate) => candidate.id === id)!;

describe('what the service asks of a manifest', () => {
  it('names an action’s event app.<app_id>.<action>', () => {
    expect(appEventName(manifest.id, 'add_note')).toBe('app.loyalty.add_note');
  });

  it('lets readers list and get, and asks apps.write for the rest', () => {
    expect(manifest.actions.map((candidate) => [candidate.id, actionPermission(candidate)])).toEqual([
      ['list', 'apps.read'],
      ['get_note', 'apps.read'],
      ['add_note', 'apps.write'],
      ['update_note', 'apps.write'],
      ['delete_note', 'apps.write'],
      ['list_faq', 'apps.read'],
      ['add_faq', 'apps.write'],
      ['score', 'apps.write'],
      ['digest', 'apps.write'],
    ]);
  });

  it('finds the shape a webhook body or schedule input must fit', () => {
    expect(actionInputShape(manifest, action('add_note'))).toBe(manifest.entities[0]!.fields);
    expect(actionInputShape(manifest, action('digest'))).toBe((action('digest') as { input: unknown }).input);
    expect(actionInputShape(manifest, action('list'))).toBeNull();
    expect(entityOf(manifest, action('list_faq'))?.id).toBe('faq');
    expect(entityOf(manifest, action('score'))).toBeNull();
  });

  it('hands every mount a context key', () => {
    expect(Object.keys(MOUNT_CONTEXT).sort()).toEqual([...MOUNTS].sort());
  });
});
