import type { AddressInfo } from 'node:net';
import {
  SMTPServer,
  type SMTPServerAddress,
  type SMTPServerDataStream,
  type SMTPServerSession,
} from 'smtp-server';
import { createSmtpFaults, type SmtpFault, type SmtpFaultStage } from './faults.ts';
import { headerOf, type ParsedMessage, parseMessage } from './parse.ts';

export interface SmtpFixtureOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  readonly port?: number;
  /** Offer AUTH PLAIN and LOGIN and require these credentials before MAIL FROM; no AUTH without. */
  readonly auth?: { readonly user: string; readonly password: string };
  /** Largest message accepted (SIZE), in bytes; 10 MiB by default. */
  readonly maxMessageBytes?: number;
}

/** One message the fixture took (answered 250 to, or recorded by a `performs` fault). */
export interface ReceivedMail {
  /** The SMTP envelope: MAIL FROM and every accepted RCPT TO. */
  readonly envelope: { readonly mailFrom: string; readonly rcptTo: readonly string[] };
  /** The user that authenticated the session; null without AUTH. */
  readonly user: string | null;
  /** The message as sent (dot-stuffing removed). */
  readonly raw: string;
  /** Header names lower-case, folding undone, encoded words decoded; repeated headers keep every value. */
  readonly headers: ParsedMessage['headers'];
  readonly subject: string | null;
  readonly messageId: string | null;
  readonly from: string | null;
  readonly to: string | null;
  /** The first text/plain part, decoded. */
  readonly text: string | null;
  /** The first text/html part, decoded. */
  readonly html: string | null;
}

/** One AUTH attempt: the user name given and whether the credentials matched. */
export interface SmtpLogin {
  readonly method: string;
  readonly user: string;
  readonly accepted: boolean;
}

/** A loopback SMTP server: the address to send to, what arrived, and faults on demand. */
export interface SmtpFixture {
  readonly host: '127.0.0.1';
  readonly port: number;
  /** `smtp://[user:password@]127.0.0.1:<port>`, credentials percent-encoded (an `SMTP_URL`). */
  readonly url: string;
  /** Every message taken, oldest first. */
  readonly messages: readonly ReceivedMail[];
  /** Every AUTH attempt, oldest first. */
  readonly logins: readonly SmtpLogin[];
  /** How many connections were opened. */
  readonly connections: number;
  /** Injects a failure into the next session(s) reaching the fault's stage. */
  failNext(fault: SmtpFault): void;
  clearFaults(): void;
  /** Forgets the messages and logins received so far. */
  clear(): void;
  /** Resolves once at least `count` messages have arrived; rejects after `timeoutMs` (default 5 s). */
  waitForMessages(count: number, timeoutMs?: number): Promise<readonly ReceivedMail[]>;
  /** Stops listening and cuts every open connection (hung ones too). */
  close(): Promise<void>;
}

const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;

/** An error whose reply code smtp-server sends. */
function replyError(code: number, message: string): Error & { responseCode: number } {
  return Object.assign(new Error(message), { responseCode: code });
}

function defaultReply(stage: SmtpFaultStage, code: number): string {
  const permanent = code >= 500;
  switch (stage) {
    case 'connect':
      return permanent ? 'Service not available' : 'Service temporarily unavailable, try again later';
    case 'mail':
      return permanent ? 'Sender address rejected' : 'Sender temporarily rejected, try again later';
    case 'rcpt':
      return permanent ? 'Recipient address rejected: mailbox unavailable' : 'Mailbox busy, try again later';
    case 'data':
      return permanent ? 'Message rejected' : 'Message not accepted now, try again later';
  }
}

/** Starts a loopback SMTP server on 127.0.0.1 (no TLS: STARTTLS is not offered). */
export async function startSmtpFixture(options: SmtpFixtureOptions = {}): Promise<SmtpFixture> {
  const faults = createSmtpFaults();
  const messages: ReceivedMail[] = [];
  const logins: SmtpLogin[] = [];
  const waiters = new Set<() => void>();
  let connections = 0;
  const auth = options.auth;

  const record = (raw: string, session: SMTPServerSession): void => {
    const parsed = parseMessage(raw);
    const mailFrom = session.envelope.mailFrom;
    messages.push({
      envelope: {
        mailFrom: mailFrom ? mailFrom.address : '',
        rcptTo: session.envelope.rcptTo.map((address) => address.address),
      },
      user: typeof session.user === 'string' ? session.user : null,
      raw,
      headers: parsed.headers,
      subject: headerOf(parsed.headers, 'subject') ?? null,
      messageId: headerOf(parsed.headers, 'message-id') ?? null,
      from: headerOf(parsed.headers, 'from') ?? null,
      to: headerOf(parsed.headers, 'to') ?? null,
      text: parsed.text,
      html: parsed.html,
    });
    for (const wake of [...waiters]) wake();
  };

  // The connection of a session: a `drop` destroys its socket without a reply.
  const drop = (session: SMTPServerSession): void => {
    for (const connection of server.connections) {
      if (connection.session === session || connection.id === session.id) connection._socket.destroy();
    }
  };

  /** Applies the stage's fault, if any; answers whether the caller must still answer normally. */
  const applyFault = (
    stage: SmtpFaultStage,
    session: SMTPServerSession,
    callback: (err?: Error | null) => void,
    performed?: () => void,
  ): boolean => {
    const fault = faults.take(stage);
    if (!fault) return true;
    if (fault.kind === 'reply') {
      callback(replyError(fault.code!, fault.message ?? defaultReply(stage, fault.code!)));
      return false;
    }
    if (fault.performs) performed?.();
    if (fault.kind === 'drop') drop(session);
    // `hang`: the callback is never called; the client times out (close() cuts the connection).
    return false;
  };

  const server = new SMTPServer({
    name: 'smtp-fixture.local',
    banner: 'Cartwright loopback SMTP fixture',
    logger: false,
    secure: false,
    disabledCommands: auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authMethods: ['PLAIN', 'LOGIN'],
    authOptional: !auth,
    allowInsecureAuth: true,
    disableReverseLookup: true,
    size: options.maxMessageBytes ?? DEFAULT_MAX_BYTES,
    closeTimeout: 100,
    onConnect(session, callback) {
      connections += 1;
      if (applyFault('connect', session, callback)) callback();
    },
    onAuth(login, _session, callback) {
      const user = login.username ?? '';
      const accepted =
        auth !== undefined &&
        (login.method === 'PLAIN' || login.method === 'LOGIN') &&
        user === auth.user &&
        login.password === auth.password;
      logins.push({ method: login.method, user, accepted });
      if (!accepted) return callback(replyError(535, '5.7.8 Authentication credentials invalid'));
      callback(null, { user });
    },
    onMailFrom(_address: SMTPServerAddress, session, callback) {
      if (applyFault('mail', session, callback)) callback();
    },
    onRcptTo(_address: SMTPServerAddress, session, callback) {
      if (applyFault('rcpt', session, callback)) callback();
    },
    onData(stream: SMTPServerDataStream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (stream.sizeExceeded) {
          callback(replyError(552, '5.3.4 Message exceeds the fixed maximum message size'));
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        if (applyFault('data', session, callback, () => record(raw, session))) {
          record(raw, session);
          callback(null, `2.0.0 Ok: queued as fixture-${messages.length}`);
        }
      });
    },
  });
  server.on('error', () => {
    // A client that went away mid-session (a timeout, a drop) is no failure of the fixture.
  });

  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;
  const credentials = auth ? `${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.password)}@` : '';

  return {
    host: '127.0.0.1',
    port,
    url: `smtp://${credentials}127.0.0.1:${port}`,
    get messages() {
      return messages;
    },
    get logins() {
      return logins;
    },
    get connections() {
      return connections;
    },
    failNext: (fault) => faults.add(fault),
    clearFaults: () => faults.clear(),
    clear() {
      messages.length = 0;
      logins.length = 0;
    },
    waitForMessages(count, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (messages.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve([...messages]);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} message(s) within ${timeoutMs} ms, got ${messages.length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close() {
      return new Promise<void>((resolve) => {
        for (const connection of server.connections) connection._socket.destroy();
        server.close(() => resolve());
      });
    },
  };
}
