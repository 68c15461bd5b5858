import { describe, expect, it } from 'vitest';
import { noMailer } from '../src/kernel/mailer.ts';
import { MailConfigError, mailServicesOf, readMailConfig } from '../src/mail/config.ts';

// Issue 15, item 7: the SMTP server and sender are server-only configuration; every problem stops
// start-up with one line that names the variable and never repeats a value (SMTP_URL holds a password).

const PASSWORD = 'hunter2-very-secret';
const FROM = 'orders@shop.example';

function refusal(variables: Record<string, string>): string {
  try {
    readMailConfig(variables);
  } catch (error) {
    expect(error).toBeInstanceOf(MailConfigError);
    const message = (error as Error).message;
    expect(message).not.toContain(PASSWORD);
    expect(message).not.toContain('mailer-user');
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('expected a refusal');
}

describe('readMailConfig', () => {
  it('answers no mail server when nothing is set (empty is unset)', () => {
    expect(readMailConfig({})).toEqual({ smtp: null, from: null });
    expect(readMailConfig({ SMTP_URL: '', MAIL_FROM: '' })).toEqual({ smtp: null, from: null });
    expect(mailServicesOf({})).toEqual({ mailer: noMailer, from: null });
  });

  it('reads smtp:// and smtps:// with default ports, decoded credentials and the TLS policy', () => {
    expect(readMailConfig({ SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: FROM })).toEqual({
      smtp: { host: '127.0.0.1', port: 2525, secure: false, requireTls: false, user: null, password: null },
      from: FROM,
    });
    expect(
      readMailConfig({
        SMTP_URL: `smtps://mailer-user%40shop:${PASSWORD}%3A1@Mail.Example.com`,
        MAIL_FROM: FROM,
      }).smtp,
    ).toEqual({
      host: 'mail.example.com',
      port: 465,
      secure: true,
      requireTls: false,
      user: 'mailer-user@shop',
      password: `${PASSWORD}:1`,
    });
    // Credentials to a remote host over smtp:// need STARTTLS; loopback (tests, a local relay) does not.
    expect(
      readMailConfig({ SMTP_URL: `smtp://u:${PASSWORD}@relay.example.com/`, MAIL_FROM: FROM }).smtp,
    ).toMatchObject({ port: 587, secure: false, requireTls: true });
    expect(readMailConfig({ SMTP_URL: `smtp://u:${PASSWORD}@[::1]:25`, MAIL_FROM: FROM }).smtp).toMatchObject(
      {
        host: '::1',
        requireTls: false,
      },
    );
    expect(readMailConfig({ SMTP_URL: 'smtp://relay.example.com', MAIL_FROM: FROM }).smtp?.requireTls).toBe(
      false,
    );
  });

  it('refuses a malformed SMTP_URL with one line that names it and never the value', () => {
    const bad: [string, RegExp][] = [
      [
        `not a url ${PASSWORD}`,
        /^Invalid SMTP_URL: expected smtp:\/\/\[user:password@\]host\[:port\] or smtps:\/\//,
      ],
      [
        `https://mailer-user:${PASSWORD}@mail.example.com`,
        /^Invalid SMTP_URL: the scheme is smtp:\/\/ .* or smtps:\/\//,
      ],
      [`smtp:mailer-user:${PASSWORD}`, /^Invalid SMTP_URL: no valid host/],
      [`smtp://mailer-user:${PASSWORD}@mail%20host`, /^Invalid SMTP_URL: no valid host/],
      [`smtp://mailer-user:${PASSWORD}@mail.example.com:99999`, /^Invalid SMTP_URL: expected/],
      [`smtp://mailer-user:${PASSWORD}@mail.example.com:0`, /^Invalid SMTP_URL: the port is 1 to 65535$/],
      [
        `smtp://mailer-user:${PASSWORD}@mail.example.com/path`,
        /^Invalid SMTP_URL: no path, query or fragment/,
      ],
      [`smtp://mailer-user:${PASSWORD}@mail.example.com?secure=true`, /^Invalid SMTP_URL: no path, query/],
      ['smtp://mailer-user@mail.example.com', /^Invalid SMTP_URL: give both user and password, or neither$/],
      [`smtp://:${PASSWORD}@mail.example.com`, /^Invalid SMTP_URL: give both user and password/],
      [
        `smtp://mailer-user:${PASSWORD}%zz@mail.example.com`,
        /^Invalid SMTP_URL: the user and password are percent-encoded/,
      ],
    ];
    for (const [url, expected] of bad) expect(refusal({ SMTP_URL: url, MAIL_FROM: FROM })).toMatch(expected);
  });

  it('needs MAIL_FROM, a bare address, exactly when SMTP_URL is set', () => {
    const url = `smtp://mailer-user:${PASSWORD}@127.0.0.1:2525`;
    expect(refusal({ SMTP_URL: url })).toBe(
      'Invalid MAIL_FROM: required when SMTP_URL is set (the address mail is sent from)',
    );
    for (const from of [
      'Shop <orders@shop.example>',
      'orders',
      'orders@',
      'or ders@shop.example',
      'a@b@c.example',
    ]) {
      expect(refusal({ SMTP_URL: url, MAIL_FROM: from })).toMatch(
        /^Invalid MAIL_FROM: expected a bare address/,
      );
    }
    expect(refusal({ MAIL_FROM: FROM })).toBe(
      'Invalid MAIL_FROM: set SMTP_URL too (without a mail server nothing is sent)',
    );
    expect(readMailConfig({ SMTP_URL: url, MAIL_FROM: 'no-reply@localhost' }).from).toBe(
      'no-reply@localhost',
    );
  });
});
