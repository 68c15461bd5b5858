import type { Executor } from '@cartwright/repository';
import { sql } from 'drizzle-orm';

/** Fails the statement (and so the transaction) the way PostgreSQL reports `state`. */
export async function raise(tx: Executor, state: '40001' | '40P01' | '23505'): Promise<never> {
  await tx.execute(
    sql.raw(`do $$ begin raise exception 'forced ${state}' using errcode = '${state}'; end $$`),
  );
  throw new Error('unreachable: the statement raised');
}
