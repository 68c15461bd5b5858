import nodemailer, { type NodemailerError } from 'nodemailer';
import type { Mailer, MailFailureCode, MailResult } from '../kernel/mailer.ts';
import type { SmtpServer } from './config.ts';

// The SMTP adapter of the mail port (nodemailer, one connection per message). Every failure
// becomes a result: a 5xx reply (but 503, a session out of step) is MAIL_REFUSED, anything else
// (no connection, a timeout, a dropped connection, a 4xx reply) MAIL_UNAVAILABLE. Details are
// written here from the error's code and the server's reply, never from nodemailer's message,
// and the credentials of SMTP_URL (as given, percent-encoded or in base64) are cut out of them.

export interface SmtpMailerOptions {
  /** How long connecting may take (default 10 s). */
  readonly connectionTimeoutMs?: number;
  /** How long the server may take to greet once connected (default 10 s). */
  readonly greetingTimeoutMs?: number;
  /** How long the server may stay silent inside the session (default 30 s). */
  readonly socketTimeoutMs?: number;
}

export const SMTP_TIMEOUTS_MS = { connection: 10_000, greeting: 10_000, socket: 30_000 } as const;

/** The longest server reply a detail repeats. */
const REPLY_CHARS = 200;

/** A mailer that sends through the SMTP server `SMTP_URL` names. */
export function createSmtpMailer(server: SmtpServer, options: SmtpMailerOptions = {}): Mailer {
  const connectionTimeout = options.connectionTimeoutMs ?? SMTP_TIMEOUTS_MS.connection;
  const transport = nodemailer.createTransport({
    host: server.host,
    port: server.port,
    secure: server.secure,
    requireTLS: server.requireTls,
    auth: server.user !== null ? { user: server.user, pass: server.password ?? '' } : undefined,
    connectionTimeout,
    dnsTimeout: connectionTimeout,
    greetingTimeout: options.greetingTimeoutMs ?? SMTP_TIMEOUTS_MS.greeting,
    socketTimeout: options.socketTimeoutMs ?? SMTP_TIMEOUTS_MS.socket,
    // No SMTP traffic in any log (AUTH carries the password), and no content from files or URLs.
    logger: false,
    debug: false,
    transactionLog: false,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const redact = redactorOf(server);
  return {
    async send(message): Promise<MailResult> {
      try {
        const info = await transport.sendMail({
          from: { name: message.from.name ?? '', address: message.from.address },
          to: message.to,
          ...(message.replyTo ? { replyTo: message.replyTo } : {}),
          subject: message.subject,
          text: message.text,
          ...(message.html !== undefined ? { html: message.html } : {}),
          messageId: message.messageId,
          headers: { ...message.headers },
        });
        const accepted = info.accepted.map(String);
        if (accepted.length === 0) {
          return failure('MAIL_REFUSED', 'The mail server accepted no recipient.', null);
        }
        return { ok: true, messageId: info.messageId, accepted, response: redact(oneLine(info.response)) };
      } catch (error) {
        return failureOf(error as NodemailerError, redact);
      }
    },
  };
}

function failure(code: MailFailureCode, detail: string, responseCode: number | null): MailResult {
  return { ok: false, code, detail, responseCode };
}

/** The port's answer to a nodemailer error, in words of our own plus the server's (redacted) reply. */
function failureOf(error: NodemailerError, redact: (text: string) => string): MailResult {
  const responseCode = typeof error?.responseCode === 'number' ? error.responseCode : null;
  const reply =
    responseCode !== null && typeof error.response === 'string'
      ? ` The server answered: ${redact(oneLine(error.response)).slice(0, REPLY_CHARS)}`
      : '';
  if (responseCode !== null) {
    // RFC 5321: 5yz is permanent, 4yz transient; 503 says the session was out of step, not that
    // the message was refused, so it may go through on a new connection.
    const permanent = responseCode >= 500 && responseCode < 600 && responseCode !== 503;
    const what =
      error.code === 'EAUTH'
        ? 'The mail server refused the login of SMTP_URL.'
        : permanent
          ? 'The mail server refused the message.'
          : 'The mail server could not take the message now.';
    return failure(permanent ? 'MAIL_REFUSED' : 'MAIL_UNAVAILABLE', `${what}${reply}`, responseCode);
  }
  switch (error?.code) {
    case 'EAUTH':
    case 'ENOAUTH':
      return failure('MAIL_REFUSED', 'The mail server did not accept the login of SMTP_URL.', null);
    case 'EENVELOPE':
    case 'EMESSAGE':
      return failure('MAIL_REFUSED', 'The mail server could not take this message.', null);
    case 'ETIMEDOUT':
      return failure('MAIL_UNAVAILABLE', timeoutDetail(error.timeoutType), null);
    case 'EDNS':
      return failure('MAIL_UNAVAILABLE', 'The mail server’s host name could not be resolved.', null);
    case 'ETLS':
      return failure('MAIL_UNAVAILABLE', 'The TLS connection to the mail server failed.', null);
    case 'ECONNECTION':
      return failure(
        'MAIL_UNAVAILABLE',
        'The mail server closed the connection unexpectedly; the message may not have been taken.',
        null,
      );
    default:
      return failure(
        'MAIL_UNAVAILABLE',
        error?.originalCode === 'ECONNREFUSED' || error?.code === 'ECONNREFUSED'
          ? 'The mail server refused the connection.'
          : 'The mail server could not be reached.',
        null,
      );
  }
}

function timeoutDetail(type: NodemailerError['timeoutType']): string {
  switch (type) {
    case 'CONNECT_TIMEOUT':
      return 'Connecting to the mail server timed out.';
    case 'GREETING_TIMEOUT':
      return 'The mail server sent no greeting in time.';
    case 'UPGRADE_TIMEOUT':
      return 'The TLS upgrade with the mail server timed out.';
    default:
      return 'The mail server stopped answering; the message may not have been taken.';
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Cuts every form a credential of SMTP_URL can take in an SMTP exchange out of a text. */
function redactorOf(server: SmtpServer): (text: string) => string {
  const { user, password } = server;
  if (user === null || password === null) return (text) => text;
  const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  const forms = [
    base64(`\u0000${user}\u0000${password}`),
    base64(`${user}\u0000${user}\u0000${password}`),
    base64(user),
    base64(password),
    encodeURIComponent(user),
    encodeURIComponent(password),
    user,
    password,
  ]
    .filter((form) => form !== '')
    // Longest first, so a credential inside a longer form does not leave the rest of it behind.
    .sort((a, b) => b.length - a.length);
  return (text) => forms.reduce((redacted, form) => redacted.split(form).join('[redacted]'), text);
}
