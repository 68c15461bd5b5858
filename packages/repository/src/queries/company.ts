import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { type CompanyIdentityJson, companyIdentities } from '../schema.ts';
import type { RevisionCheck } from './basis.ts';

export type { CompanyIdentityJson };
export type CompanyIdentityRow = typeof companyIdentities.$inferSelect;

/** The shop's company identity, locked for the caller's transaction when `forUpdate`. */
export async function findCompanyIdentity(
  tx: Executor,
  tenantId: string,
  options: { forUpdate?: boolean } = {},
): Promise<CompanyIdentityRow | undefined> {
  const query = tx.select().from(companyIdentities).where(eq(companyIdentities.tenantId, tenantId));
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row;
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
  const [row] =
    revision === 0
      ? await tx
          .insert(companyIdentities)
          .values({ tenantId, data, revision: 1, createdAt: at, updatedAt: at })
          .onConflictDoNothing()
          .returning()
      : await tx
          .update(companyIdentities)
          .set({ data, revision: sql`${companyIdentities.revision} + 1`, updatedAt: at })
          .where(and(eq(companyIdentities.tenantId, tenantId), eq(companyIdentities.revision, revision)))
          .returning();
  if (row) return { ok: true, row };
  const current = await findCompanyIdentity(tx, tenantId);
  return { ok: false, actual: current?.revision ?? 0 };
}
