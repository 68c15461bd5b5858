import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type SmtpFixture, startSmtpFixture } from '../src/smtp-fixture/index.ts';

// The fixture is driven by a bare SMTP client over a socket (commands in, reply lines out), so its
// tests do not depend on the adapter they exist to test.

let fixture: SmtpFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** One SMTP client session: `send` writes a line and reads the (possibly multi-line) reply. */
class Client {
  private buffer = '';
  private waiting: (() => void) | null = null;
  closed = false;

  private constructor(private readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      this.waiting?.();
    });
    socket.on('close', () => {
      this.closed = true;
      this.waiting?.();
    });
    socket.on('error', () => {});
  }

  static async open(port: number): Promise<Client> {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new Client(socket);
  }

  /** The next complete reply (`250 …`, multi-line joined), or null when the server closed first or `timeoutMs` passed. */
  async reply(timeoutMs = 2000): Promise<string | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const lines = this.buffer.split('\r\n');
      const last = lines.findIndex((line) => /^\d{3} /.test(line) || /^\d{3}$/.test(line));
      if (last >= 0) {
        this.buffer = lines.slice(last + 1).join('\r\n');
        return lines.slice(0, last + 1).join('\n');
      }
      if (this.closed || Date.now() >= deadline) return null;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        this.waiting = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiting = null;
    }
  }

  async send(line: string, timeoutMs?: number): Promise<string | null> {
    this.socket.write(`${line}\r\n`);
    return this.reply(timeoutMs);
  }

  /** Opens the session: greeting and EHLO. */
  async hello(): Promise<string | null> {
    const greeting = await this.reply();
    expect(greeting).toMatch(/^220 /);
    return this.send('EHLO client.test');
  }

  end(): void {
    this.socket.destroy();
  }
}

const MESSAGE = [
  'From: "Shop" <orders@shop.example>',
  'To: buyer@example.test',
  'Subject: =?UTF-8?Q?Bestellbest=C3=A4tigung?= =?UTF-8?B?IDEwMDAx?=',
  'Message-ID: <cw.abc@shop.example>',
  'Content-Language: de',
  'MIME-Version: 1.0',
  'Content-Type: multipart/alternative; boundary="b1"',
  '',
  '--b1',
  'Content-Type: text/plain; charset=utf-8',
  'Content-Transfer-Encoding: quoted-printable',
  '',
  'Gr=C3=BC=C3=9Fe, 12.50 EUR, a long line that was =',
  'softly broken',
  '..a line that starts with a dot',
  '--b1',
  'Content-Type: text/html; charset=utf-8',
  'Content-Transfer-Encoding: base64',
  '',
  Buffer.from('<p>Grüße</p>').toString('base64'),
  '--b1--',
  '',
].join('\r\n');

async function deliver(client: Client, to = 'buyer@example.test'): Promise<(string | null)[]> {
  const answers = [
    await client.send('MAIL FROM:<orders@shop.example>'),
    await client.send(`RCPT TO:<${to}>`),
  ];
  if (!answers[1]?.startsWith('250')) return answers;
  answers.push(await client.send('DATA'));
  answers.push(await client.send(`${MESSAGE}\r\n.`));
  return answers;
}

describe('startSmtpFixture', () => {
  it('listens on 127.0.0.1 on a free port and records a message with its envelope, decoded', async () => {
    fixture = await startSmtpFixture();
    expect(fixture.url).toBe(`smtp://127.0.0.1:${fixture.port}`);
    const client = await Client.open(fixture.port);
    const ehlo = await client.hello();
    expect(ehlo).not.toMatch(/STARTTLS|AUTH/);
    const answers = await deliver(client);
    expect(answers.map((answer) => answer?.slice(0, 3))).toEqual(['250', '250', '354', '250']);
    await client.send('QUIT');
    client.end();

    const [mail] = await fixture.waitForMessages(1);
    expect(mail!.envelope).toEqual({ mailFrom: 'orders@shop.example', rcptTo: ['buyer@example.test'] });
    expect(mail!.user).toBeNull();
    expect(mail!.subject).toBe('Bestellbestätigung 10001');
    expect(mail!.messageId).toBe('<cw.abc@shop.example>');
    expect(mail!.headers['content-language']).toEqual(['de']);
    expect(mail!.to).toBe('buyer@example.test');
    expect(mail!.text).toBe(
      'Grüße, 12.50 EUR, a long line that was softly broken\n.a line that starts with a dot',
    );
    expect(mail!.html).toBe('<p>Grüße</p>');
    expect(mail!.raw).toContain('Message-ID: <cw.abc@shop.example>');
    expect(fixture.connections).toBe(1);
  });

  it('requires AUTH PLAIN or LOGIN with the given credentials, and records each attempt', async () => {
    fixture = await startSmtpFixture({ auth: { user: 'mailer@shop', password: 'p@ss:word' } });
    expect(fixture.url).toBe(`smtp://mailer%40shop:p%40ss%3Aword@127.0.0.1:${fixture.port}`);
    const client = await Client.open(fixture.port);
    expect(await client.hello()).toMatch(/AUTH PLAIN LOGIN/);
    expect(await client.send('MAIL FROM:<orders@shop.example>')).toMatch(/^530 /);
    const plain = (user: string, password: string) =>
      Buffer.from(`\u0000${user}\u0000${password}`).toString('base64');
    expect(await client.send(`AUTH PLAIN ${plain('mailer@shop', 'wrong')}`)).toMatch(/^535 /);
    expect(await client.send('AUTH LOGIN')).toMatch(/^334 /);
    expect(await client.send(Buffer.from('mailer@shop').toString('base64'))).toMatch(/^334 /);
    expect(await client.send(Buffer.from('p@ss:word').toString('base64'))).toMatch(/^235 /);
    expect((await deliver(client)).at(-1)).toMatch(/^250 /);
    client.end();
    const [mail] = await fixture.waitForMessages(1);
    expect(mail!.user).toBe('mailer@shop');
    expect(fixture.logins).toEqual([
      { method: 'PLAIN', user: 'mailer@shop', accepted: false },
      { method: 'LOGIN', user: 'mailer@shop', accepted: true },
    ]);
  });

  it('answers a reply fault at its stage and takes nothing, as often as told', async () => {
    fixture = await startSmtpFixture();
    fixture.failNext({ stage: 'rcpt', kind: 'reply', code: 550, times: 2 });
    fixture.failNext({ stage: 'rcpt', kind: 'reply', code: 451, message: '4.3.0 Greylisted' });
    const client = await Client.open(fixture.port);
    await client.hello();
    expect((await deliver(client))[1]).toMatch(/^550 .*Recipient address rejected/);
    await client.send('RSET');
    expect((await deliver(client))[1]).toMatch(/^550 /);
    await client.send('RSET');
    expect((await deliver(client))[1]).toBe('451 4.3.0 Greylisted');
    await client.send('RSET');
    expect((await deliver(client)).at(-1)).toMatch(/^250 /);
    client.end();
    expect(fixture.messages).toHaveLength(1);
  });

  it('refuses a connection at the greeting, or a message after DATA', async () => {
    fixture = await startSmtpFixture();
    fixture.failNext({ stage: 'connect', kind: 'reply', code: 421 });
    const refused = await Client.open(fixture.port);
    expect(await refused.reply()).toMatch(/^421 /);
    refused.end();

    fixture.failNext({ stage: 'data', kind: 'reply', code: 554, message: '5.6.0 Content rejected' });
    const client = await Client.open(fixture.port);
    await client.hello();
    expect((await deliver(client)).at(-1)).toBe('554 5.6.0 Content rejected');
    client.end();
    expect(fixture.messages).toHaveLength(0);
  });

  it('drops the connection unanswered, after recording the message when it performs', async () => {
    fixture = await startSmtpFixture();
    fixture.failNext({ stage: 'data', kind: 'drop', performs: true });
    const client = await Client.open(fixture.port);
    await client.hello();
    expect((await deliver(client)).at(-1)).toBeNull();
    expect(client.closed).toBe(true);
    expect(fixture.messages).toHaveLength(1);

    fixture.failNext({ stage: 'mail', kind: 'drop' });
    const second = await Client.open(fixture.port);
    await second.hello();
    expect(await second.send('MAIL FROM:<orders@shop.example>')).toBeNull();
    expect(second.closed).toBe(true);
    expect(fixture.messages).toHaveLength(1);
  });

  it('hangs without an answer until the client gives up, and close() still ends promptly', async () => {
    fixture = await startSmtpFixture();
    fixture.failNext({ stage: 'rcpt', kind: 'hang' });
    const client = await Client.open(fixture.port);
    await client.hello();
    await client.send('MAIL FROM:<orders@shop.example>');
    expect(await client.send('RCPT TO:<buyer@example.test>', 300)).toBeNull();
    expect(client.closed).toBe(false);
    const started = Date.now();
    await fixture.close();
    fixture = undefined;
    expect(Date.now() - started).toBeLessThan(2000);
    await client.reply(500);
    expect(client.closed).toBe(true);
  });

  it('refuses a reply fault without a proper code, and forgets faults and messages on request', async () => {
    fixture = await startSmtpFixture();
    expect(() => fixture!.failNext({ stage: 'rcpt', kind: 'reply' })).toThrow(/code from 400 to 599/);
    expect(() => fixture!.failNext({ stage: 'rcpt', kind: 'reply', code: 250 })).toThrow(/400 to 599/);
    fixture.failNext({ stage: 'rcpt', kind: 'reply', code: 550 });
    fixture.clearFaults();
    const client = await Client.open(fixture.port);
    await client.hello();
    expect((await deliver(client)).at(-1)).toMatch(/^250 /);
    client.end();
    expect(fixture.messages).toHaveLength(1);
    fixture.clear();
    expect(fixture.messages).toHaveLength(0);
    await expect(fixture.waitForMessages(1, 50)).rejects.toThrow(/expected 1 message/);
  });
});
