import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';

const SECRET = 'scrypt$16384$8$1$c2VjcmV0';

/** A logger writing into an array, and the records it wrote. */
function capture() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const logger = createLogger('info', 'test', sink);
  return {
    logger,
    text: () => lines.join(''),
    records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/** Shaped as postgres.js's PostgresError: the statement, its parameters and the row in `detail`. */
function postgresError(message: string, code: string): Error {
  return Object.assign(new Error(message), {
    name: 'PostgresError',
    code,
    detail: `Failing row contains (${SECRET}, visitor@example.test).`,
    query: 'insert into customers (password_hash, email) values ($1, $2)',
    parameters: [SECRET, 'visitor@example.test'],
    args: [SECRET, 'visitor@example.test'],
    table_name: 'customers',
    constraint_name: 'customers_email_key',
  });
}

/** Shaped as drizzle's DrizzleQueryError around a driver error. */
function drizzleError(cause: Error): Error {
  const query = 'insert into customers (password_hash, email) values ($1, $2)';
  return Object.assign(
    new Error(`Failed query: ${query}\nparams: ${SECRET},visitor@example.test`, { cause }),
    {
      query,
      params: [SECRET, 'visitor@example.test'],
    },
  );
}

describe('createLogger redacts errors', () => {
  it('keeps name, SQLSTATE, query and constraint of a wrapped driver error, never its parameters', () => {
    const log = capture();
    log.logger.error({ err: drizzleError(postgresError('duplicate key value', '23505')) }, 'failed');
    expect(log.text()).not.toContain(SECRET);
    expect(log.text()).not.toContain('visitor@example.test');
    const [record] = log.records();
    expect(record).toMatchObject({
      msg: 'failed',
      err: {
        message: 'Failed query',
        query: 'insert into customers (password_hash, email) values ($1, $2)',
        cause: {
          name: 'PostgresError',
          message: 'duplicate key value',
          code: '23505',
          table: 'customers',
          constraint: 'customers_email_key',
        },
      },
    });
    // The statement is said once, on the wrapper.
    expect((record as { err: { cause: Record<string, unknown> } }).err.cause).not.toHaveProperty('query');
  });

  it('takes a message-less record’s message from the redacted error, not the raw one', () => {
    const log = capture();
    log.logger.error(drizzleError(postgresError('boom', '23514')));
    log.logger.error({ err: drizzleError(postgresError('boom', '23514')) });
    expect(log.text()).not.toContain(SECRET);
    expect(log.records().map((record) => record.msg)).toEqual(['Failed query', 'Failed query']);
  });

  it('redacts errors nested in a record, in arrays and in causes', () => {
    const log = capture();
    const nested = new Error('outer', { cause: drizzleError(postgresError('inner', '23505')) });
    log.logger.warn({ job: { failure: nested }, failures: [nested] }, 'nested');
    expect(log.text()).not.toContain(SECRET);
    expect(log.records()[0]).toMatchObject({
      job: { failure: { message: 'outer', cause: { message: 'Failed query', cause: { code: '23505' } } } },
    });
  });

  it('drops the quoted input of a data exception (SQLSTATE class 22) and of a valibot message', () => {
    const log = capture();
    log.logger.error({ err: postgresError(`invalid input syntax for type uuid: "${SECRET}"`, '22P02') }, 'x');
    const vali = Object.assign(new Error(`Invalid type: Expected ("a" | "b") but received "${SECRET}"`), {
      name: 'ValiError',
    });
    log.logger.error({ err: vali }, 'y');
    expect(log.text()).not.toContain(SECRET);
    expect(log.records().map((record) => (record.err as { message: string }).message)).toEqual([
      'invalid input syntax for type uuid: "…"',
      'Invalid type: Expected ("…" | "…") but received "…"',
    ]);
  });

  it('keeps stack frames without the first line, ends cycles, describes aggregated errors', () => {
    const log = capture();
    const cyclic = new Error('cyclic');
    (cyclic as { cause?: unknown }).cause = cyclic;
    log.logger.error({ err: cyclic }, 'cycle');
    log.logger.error(
      { err: new AggregateError([drizzleError(postgresError('a', '08006'))], 'all failed') },
      'agg',
    );
    const [cycle, aggregate] = log.records() as { err: Record<string, unknown> }[];
    expect(JSON.stringify(cycle?.err).match(/"cyclic"/g)?.length).toBe(6);
    expect(cycle?.err.stack).toEqual(expect.arrayContaining([expect.stringMatching(/^at /)]));
    expect(aggregate?.err).toMatchObject({ message: 'all failed', errors: [{ message: 'Failed query' }] });
    expect(log.text()).not.toContain(SECRET);
  });
});
