import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  APP_WEBHOOK_SKEW_SECONDS,
  isTransportAllowed,
  isWebhookSignatureValid,
  isWithinSkew,
  sha256Hex,
  signWebhook,
  webhookHeaderProblem,
  webhookSignedString,
} from '../src/apps/webhook-signature.ts';

// Issue 16, item 2: the signing scheme of incoming app webhooks, apart from HTTP and the database.

const KEY = new TextEncoder().encode('inbound-demo-secret-of-at-least-32-bytes');

const signedStrings = fc
  .record({
    tenant: fc.uuid(),
    app: fc.stringMatching(/^[a-z][a-z0-9-]{0,39}$/),
    webhook: fc.stringMatching(/^[a-z][a-z0-9_]{0,39}$/),
    timestamp: fc.integer({ min: 0, max: 4_000_000_000 }).map(String),
    eventId: fc.stringMatching(/^[A-Za-z0-9._:-]{1,128}$/),
    body: fc.uint8Array({ maxLength: 512 }),
  })
  .map(({ body, ...rest }) => webhookSignedString({ ...rest, bodySha256: sha256Hex(body) }));

describe('webhook signatures', () => {
  it('builds tenant, app, webhook, timestamp, event id and the body digest joined by newlines', () => {
    expect(
      webhookSignedString({
        tenant: 't',
        app: 'a',
        webhook: 'w',
        timestamp: '1700000000',
        eventId: 'e',
        bodySha256: sha256Hex(new TextEncoder().encode('{}')),
      }),
    ).toBe('t\na\nw\n1700000000\ne\n44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
  });

  it('accepts its own signature, in either case of hex', () => {
    fc.assert(
      fc.property(signedStrings, (signed) => {
        const signature = signWebhook(KEY, signed);
        expect(isWebhookSignatureValid(KEY, signed, signature)).toBe(true);
        expect(isWebhookSignatureValid(KEY, signed, signature.toUpperCase())).toBe(true);
      }),
    );
  });

  it('fails when any one byte of the signed string changes', () => {
    fc.assert(
      fc.property(signedStrings, fc.nat(), fc.integer({ min: 1, max: 255 }), (signed, position, delta) => {
        const signature = signWebhook(KEY, signed);
        const bytes = new TextEncoder().encode(signed);
        const at = position % bytes.length;
        const changed = new Uint8Array(bytes);
        changed[at] = (changed[at]! + delta) % 256;
        expect(isWebhookSignatureValid(KEY, bytes, signature)).toBe(true);
        expect(isWebhookSignatureValid(KEY, changed, signature)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('fails under another key and for signatures that are not 64 hex digits', () => {
    const signed = 'x\ny';
    const signature = signWebhook(KEY, signed);
    expect(
      isWebhookSignatureValid(
        new TextEncoder().encode('another-secret-of-at-least-32-bytes!'),
        signed,
        signature,
      ),
    ).toBe(false);
    for (const bad of [
      '',
      signature.slice(1),
      `${signature}0`,
      `sha256=${signature}`,
      signature.replace(/.$/, 'g'),
    ]) {
      expect(isWebhookSignatureValid(KEY, signed, bad)).toBe(false);
    }
  });
});

describe('webhook headers and clock', () => {
  const good = { timestamp: '1700000000', eventId: 'evt_1:a.b-c', signature: 'ab'.repeat(32) };
  it.each([
    [{}, /x-app-timestamp/],
    [{ ...good, timestamp: '-1' }, /x-app-timestamp/],
    [{ ...good, timestamp: '1.5' }, /x-app-timestamp/],
    [{ ...good, eventId: '' }, /x-app-event-id/],
    [{ ...good, eventId: 'e'.repeat(129) }, /x-app-event-id/],
    [{ ...good, eventId: 'é' }, /x-app-event-id/],
    [{ ...good, signature: 'ab'.repeat(31) }, /x-app-signature/],
  ])('refuses %j', (headers, problem) => {
    expect(webhookHeaderProblem(headers)).toMatch(problem);
  });

  it('accepts well-formed headers, event ids up to 128 characters', () => {
    expect(webhookHeaderProblem(good)).toBeNull();
    expect(webhookHeaderProblem({ ...good, eventId: 'e'.repeat(128) })).toBeNull();
  });

  it('allows 5 minutes either way, inclusive', () => {
    const now = 1_700_000_000_000;
    const at = (seconds: number) => String(now / 1000 + seconds);
    expect(APP_WEBHOOK_SKEW_SECONDS).toBe(300);
    expect(isWithinSkew(at(-300), now)).toBe(true);
    expect(isWithinSkew(at(300), now)).toBe(true);
    expect(isWithinSkew(at(-301), now)).toBe(false);
    expect(isWithinSkew(at(301), now)).toBe(false);
  });
});

describe('isTransportAllowed', () => {
  it.each([
    [{ encrypted: true, peerAddress: '198.51.100.1' }, false, true],
    [{ encrypted: false, peerAddress: '127.0.0.1' }, false, true],
    [{ encrypted: false, peerAddress: '127.8.9.10' }, false, true],
    [{ encrypted: false, peerAddress: '::1' }, false, true],
    [{ encrypted: false, peerAddress: '::ffff:127.0.0.1', forwardedProto: 'https' }, false, true],
    [{ encrypted: false, peerAddress: '127.0.0.1', forwardedProto: 'http, https' }, false, true],
    [{ encrypted: false, peerAddress: '127.0.0.1', forwardedProto: 'https, http' }, false, false],
    [{ encrypted: false, peerAddress: '127.0.0.1', forwardedProto: 'http' }, false, false],
    [{ encrypted: false, peerAddress: '198.51.100.1', forwardedProto: 'https' }, false, false],
    [{ encrypted: false, peerAddress: '198.51.100.1' }, false, false],
    [{ encrypted: false }, false, false],
    [{ encrypted: false, peerAddress: '198.51.100.1' }, true, true],
  ])('%j with allowHttp %s: %s', (transport, allowHttp, allowed) => {
    expect(isTransportAllowed(transport, allowHttp)).toBe(allowed);
  });
});
