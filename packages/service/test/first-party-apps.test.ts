import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseManifest } from '@cartwright/app-manifest';
import { describe, expect, it } from 'vitest';
import { EMAIL_DELIVERY_APP_ID, FIRST_PARTY_MANIFESTS } from '../src/apps/first-party.ts';

// The first-party apps ship with the service (`src/apps/*.manifest.json`) and are shown as
// examples (`examples/apps/<app>/`): the two stay the same, and each is a valid manifest that
// declares only what the service serves.

const root = resolve(import.meta.dirname, '../../..');
const read = (path: string): unknown => JSON.parse(readFileSync(resolve(root, path), 'utf8'));

describe('the Email Delivery manifest', () => {
  const example = read('examples/apps/email-delivery/manifest.json');

  it('is valid under parseManifest, as the examples file and as the service ships it', () => {
    const parsed = parseManifest(example);
    expect(parsed.ok).toBe(true);
    expect(read('packages/service/src/apps/email-delivery.manifest.json')).toEqual(example);
    expect(FIRST_PARTY_MANIFESTS[EMAIL_DELIVERY_APP_ID]).toEqual(parsed.ok ? parsed.value : null);
  });

  it('is email_delivery 1.0.0, reads orders, and declares no action, entity or schedule it cannot serve', () => {
    expect(FIRST_PARTY_MANIFESTS.email_delivery).toMatchObject({
      apiVersion: 1,
      id: 'email_delivery',
      version: '1.0.0',
      name: { en: 'Email Delivery', de: 'E-Mail-Versand' },
      permissions: ['orders.read'],
      entities: [],
      actions: [],
      blocks: [],
      intelligence: { tools: [] },
      schedules: [],
      webhooks: [],
    });
    expect(Object.keys(FIRST_PARTY_MANIFESTS)).toEqual([EMAIL_DELIVERY_APP_ID]);
  });
});
