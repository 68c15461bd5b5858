import { eq } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { type CompanyIdentityJson, companyIdentities } from '../schema.ts';
import type { RevisionCheck } from './basis.ts';
import { findRow, reviseRows } from './tenant-rows.ts';

export type { CompanyIdentityJson };
export type CompanyIdentityRow = typeof companyIdentities.$inferSelect;

/** The shop's company identity, locked for the caller's transaction when `forUpdate`. */
export function findCompanyIdentity(
  tx: Executor,
  tenantId: string,
  options: { forUpdate?: boolean } = {},
): Promise<CompanyIdentityRow | undefined> {
  return findRow(tx, companyIdentities, tenantId, [], options.forUpdate ? 'update' : undefined);
}

/**
 * Saves the identity at `revision`: 0 creates it (refused when one exists), the stored revision
 * replaces it. A refusal answers the stored revision (0 when there is none).
 */
export async function saveCompanyIdentity(
  tx: Executor,
  tenantId: string,
  revision: number,
  data: CompanyIdentityJson,
  at: Date,
): Promise<RevisionCheck<CompanyIdentityRow>> {
  const atRevision = [eq(companyIdentities.revision, revision)];
  const [row] =
    revision === 0
      ? await tx
          .insert(companyIdentities)
          .values({ tenantId, data, revision: 1, createdAt: at, updatedAt: at })
          .onConflictDoNothing()
          .returning()
      : await reviseRows(tx, companyIdentities, tenantId, atRevision, { data }, at);
  if (row) return { ok: true, row };
  const current = await findCompanyIdentity(tx, tenantId);
  return { ok: false, actual: current?.revision ?? 0 };
}
