import * as v from 'valibot';
import { EnvironmentError } from '../kernel/environment.ts';
import { noMailer } from '../kernel/mailer.ts';
import type { MailServices } from '../kernel/services.ts';
import { createSmtpMailer, type SmtpMailerOptions } from './smtp.ts';

// Mail configuration: the operator's SMTP server and sender address. Server-only: read from the
// process environment by the hosts, checked here, never returned by an operation, a tool or a log
// line. A problem stops start-up with one line that names the variable and never echoes a value
// (SMTP_URL holds a password).

/** The SMTP server mail goes through, as `SMTP_URL` names it. */
export interface SmtpServer {
  readonly host: string;
  readonly port: number;
  /** `smtps://`: TLS from the first byte (implicit TLS). */
  readonly secure: boolean;
  /**
   * `smtp://` with credentials to a host other than loopback: STARTTLS must succeed before AUTH,
   * so a password never travels in clear text. Otherwise STARTTLS is used when the server offers it.
   */
  readonly requireTls: boolean;
  /** Decoded from the URL's user info; null without credentials. Private. */
  readonly user: string | null;
  readonly password: string | null;
}

export interface MailConfig {
  /** Null when `SMTP_URL` is unset: no mail is sent (MAIL_NOT_CONFIGURED). */
  readonly smtp: SmtpServer | null;
  /** `MAIL_FROM`, a bare address; null exactly when `smtp` is. */
  readonly from: string | null;
}

/** Raised for a configuration problem; the message is one line and holds no value. */
export class MailConfigError extends EnvironmentError {
  override name = 'MailConfigError';
}

/** The mail variables as environment entries: every host that serves or works reads them. */
export const mailEnvironment = {
  SMTP_URL: v.optional(v.string()),
  MAIL_FROM: v.optional(v.string()),
};

/** The variables the hosts pass in (unset and empty are the same). */
export interface MailVariables {
  readonly SMTP_URL?: string | undefined;
  readonly MAIL_FROM?: string | undefined;
}

/** The mail services of a process: the SMTP adapter when `SMTP_URL` is set, else no mailer. */
export function mailServicesOf(variables: MailVariables, options?: SmtpMailerOptions): MailServices {
  const config = readMailConfig(variables);
  return config.smtp
    ? { mailer: createSmtpMailer(config.smtp, options), from: config.from }
    : { mailer: noMailer, from: null };
}

const DEFAULT_PORTS = { smtp: 587, smtps: 465 } as const;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);
/** A host name, an IPv4 address or a bracketed IPv6 address. */
const HOST = /^(?:\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)$/;
const URL_SHAPE = 'expected smtp://[user:password@]host[:port] or smtps://…';
/** A bare address: no display name, no comments, no spaces; the domain is a host name. */
const ADDRESS =
  /^[^\s@<>()[\]",;:\\]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;

/** Checks the mail variables and answers the configuration, or throws MailConfigError. */
export function readMailConfig(variables: MailVariables): MailConfig {
  const set = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);
  const url = set(variables.SMTP_URL);
  const from = set(variables.MAIL_FROM);
  if (url === undefined) {
    if (from !== undefined) {
      throw new MailConfigError(
        'Invalid MAIL_FROM: set SMTP_URL too (without a mail server nothing is sent)',
      );
    }
    return { smtp: null, from: null };
  }
  const smtp = readSmtpUrl(url);
  if (from === undefined) {
    throw new MailConfigError(
      'Invalid MAIL_FROM: required when SMTP_URL is set (the address mail is sent from)',
    );
  }
  if (from.length > 254 || !ADDRESS.test(from)) {
    throw new MailConfigError(
      'Invalid MAIL_FROM: expected a bare address such as orders@shop.example (the display name is each shop’s name)',
    );
  }
  return { smtp, from };
}

function readSmtpUrl(text: string): SmtpServer {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new MailConfigError(`Invalid SMTP_URL: ${URL_SHAPE}`);
  }
  const scheme = url.protocol.slice(0, -1);
  if (scheme !== 'smtp' && scheme !== 'smtps') {
    throw new MailConfigError(
      'Invalid SMTP_URL: the scheme is smtp:// (STARTTLS when offered) or smtps:// (TLS from the start)',
    );
  }
  const hostname = url.hostname.toLowerCase();
  if (!HOST.test(hostname)) throw new MailConfigError(`Invalid SMTP_URL: no valid host; ${URL_SHAPE}`);
  // nodemailer takes an IPv6 address without its brackets.
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  if ((url.pathname !== '' && url.pathname !== '/') || url.search !== '' || url.hash !== '') {
    throw new MailConfigError('Invalid SMTP_URL: no path, query or fragment after the host and port');
  }
  const port = url.port === '' ? DEFAULT_PORTS[scheme] : Number(url.port);
  if (port === 0) throw new MailConfigError('Invalid SMTP_URL: the port is 1 to 65535');
  const user = decodeCredential(url.username);
  const password = decodeCredential(url.password);
  if ((user === null) !== (password === null)) {
    throw new MailConfigError('Invalid SMTP_URL: give both user and password, or neither');
  }
  const secure = scheme === 'smtps';
  return {
    host,
    port,
    secure,
    requireTls: !secure && user !== null && !LOOPBACK_HOSTS.has(host),
    user,
    password,
  };
}

/** A percent-encoded user or password of the URL; null when absent. */
function decodeCredential(encoded: string): string | null {
  if (encoded === '') return null;
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw new MailConfigError(
      'Invalid SMTP_URL: the user and password are percent-encoded (e.g. %40 for @, %3A for :)',
    );
  }
}
