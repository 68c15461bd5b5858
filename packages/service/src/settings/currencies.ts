import { basisTables, type Executor, findRevisioned } from '@cartwright/repository';
import { type Failure, fail } from '../kernel/errors.ts';

/**
 * Refuses currencies the shop has not set up; `pointer` names the list they came from
 * (`/prices` → `/prices/0/currency`). The found currencies stay locked (`FOR SHARE`) until the
 * transaction ends, so they cannot be deleted under the caller's write.
 */
export async function currenciesExist(
  tx: Executor,
  tenantId: string,
  codes: readonly string[],
  pointer = '/prices',
): Promise<Failure | null> {
  for (const [index, code] of codes.entries()) {
    if (!(await findRevisioned(tx, basisTables.currencies, tenantId, code, 'share'))) {
      return fail('VALIDATION_FAILED', `The currency ${code} is not set up in this shop.`, {
        errors: [{ pointer: `${pointer}/${index}/currency`, message: 'unknown currency' }],
      });
    }
  }
  return null;
}
