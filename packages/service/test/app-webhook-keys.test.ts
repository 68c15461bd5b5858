import { describe, expect, it } from 'vitest';
import { appWebhooksOf, readAppWebhookKeys } from '../src/apps/webhook-keys.ts';
import { readEnvironment } from '../src/kernel/environment.ts';
import { noAppWebhooks } from '../src/kernel/services.ts';
import { outsideEnvironment, outsideServicesOf } from '../src/outside/config.ts';

// Issue 16, item 2: `APP_WEBHOOK_KEYS` is server-only configuration; every problem stops start-up
// with one line that names the variable and never repeats a secret.

const SHOP = '01900000-0000-7000-8000-000000000001';
const SECRET = 'inbound-demo-secret-of-32-bytes!'; // exactly 32 bytes
const SHORT = 'inbound-demo-secret-31-bytes-xx';

function refusal(text: string): string {
  try {
    readAppWebhookKeys(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('APP_WEBHOOK_KEYS', () => {
  it('reads each app key of each shop as the secret bytes', () => {
    expect(Buffer.byteLength(SECRET)).toBe(32);
    const keys = readAppWebhookKeys(
      JSON.stringify({ [SHOP]: { 'inbound-demo': SECRET, loyalty: `${SECRET}x` } }),
    );
    expect(Buffer.from(keys.get(SHOP)!.get('inbound-demo')!).toString()).toBe(SECRET);
    expect([...keys.get(SHOP)!.keys()]).toEqual(['inbound-demo', 'loyalty']);
  });

  it('is empty when unset, and then no webhook is accepted', () => {
    expect(readAppWebhookKeys(undefined).size).toBe(0);
    expect(readAppWebhookKeys('').size).toBe(0);
    expect(appWebhooksOf({})).toBe(noAppWebhooks);
  });

  it('refuses a secret shorter than 32 bytes, naming the variable, shop and app but never the secret', () => {
    expect(Buffer.byteLength(SHORT)).toBe(31);
    const message = refusal(JSON.stringify({ [SHOP]: { 'inbound-demo': SHORT } }));
    expect(message).toBe(
      `Invalid APP_WEBHOOK_KEYS: the secret of app inbound-demo in shop ${SHOP} must be a string of 32 to 1024 bytes`,
    );
    expect(message).not.toContain(SHORT);
    expect(message.split('\n')).toHaveLength(1);
  });

  it.each([
    ['not JSON', `{"${SHOP}": {"inbound-demo": ${SECRET}}}`],
    ['an array', JSON.stringify([SECRET])],
    ['a key that is not a shop id', JSON.stringify({ [SECRET]: { 'inbound-demo': SECRET } })],
    ['a shop entry that is a string', JSON.stringify({ [SHOP]: SECRET })],
    ['an app key that is not an app id', JSON.stringify({ [SHOP]: { [SECRET]: SECRET } })],
    ['a secret that is not a string', JSON.stringify({ [SHOP]: { 'inbound-demo': 12345 } })],
  ])('refuses %s in one line without the secret', (_, text) => {
    const message = refusal(text);
    expect(message).toMatch(/^Invalid APP_WEBHOOK_KEYS: /);
    expect(message).not.toContain(SECRET);
    expect(message.split('\n')).toHaveLength(1);
  });

  it('is part of the one outside wiring, with APP_WEBHOOKS_ALLOW_HTTP', async () => {
    const env = readEnvironment(outsideEnvironment, {
      APP_WEBHOOK_KEYS: JSON.stringify({ [SHOP]: { 'inbound-demo': SECRET } }),
      APP_WEBHOOKS_ALLOW_HTTP: 'true',
    });
    const outside = outsideServicesOf(env);
    expect(outside.appWebhooks.allowHttp).toBe(true);
    expect(outside.appWebhooks.keys.get(SHOP)?.has('inbound-demo')).toBe(true);
    await outside.sandbox.close();
    expect(() => readEnvironment(outsideEnvironment, { APP_WEBHOOKS_ALLOW_HTTP: 'yes' })).toThrow(
      /^Invalid APP_WEBHOOKS_ALLOW_HTTP: expected true or false$/,
    );
    expect(() =>
      outsideServicesOf({ APP_WEBHOOK_KEYS: JSON.stringify({ [SHOP]: { 'inbound-demo': SHORT } }) }),
    ).toThrow(/^Invalid APP_WEBHOOK_KEYS: /);
  });
});
