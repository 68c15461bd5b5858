import { and, desc, eq, isNull, lt, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { apiTokens } from '../schema.ts';

export type ApiTokenRow = typeof apiTokens.$inferSelect;

export async function insertToken(tx: Executor, token: typeof apiTokens.$inferInsert): Promise<ApiTokenRow> {
  const [row] = await tx.insert(apiTokens).values(token).returning();
  return row!;
}

/** The token with this hash in this shop, if it exists (revoked and expired ones included). */
export async function findTokenByHash(
  tx: Executor,
  tenantId: string,
  tokenHash: string,
): Promise<ApiTokenRow | undefined> {
  const [row] = await tx
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.tenantId, tenantId), eq(apiTokens.tokenHash, tokenHash)));
  return row;
}

export async function findToken(
  tx: Executor,
  tenantId: string,
  tokenId: string,
): Promise<ApiTokenRow | undefined> {
  const [row] = await tx
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.tenantId, tenantId), eq(apiTokens.id, tokenId)));
  return row;
}

export interface TokenPage {
  readonly limit: number;
  /** Id of the last token of the previous page (tokens are listed newest first by id, UUIDv7). */
  readonly after?: string | undefined;
}

export async function listTokens(tx: Executor, tenantId: string, page: TokenPage): Promise<ApiTokenRow[]> {
  const conditions: SQL[] = [eq(apiTokens.tenantId, tenantId)];
  if (page.after) conditions.push(lt(apiTokens.id, page.after));
  return tx
    .select()
    .from(apiTokens)
    .where(and(...conditions))
    .orderBy(desc(apiTokens.id))
    .limit(page.limit);
}

export async function revokeToken(
  tx: Executor,
  tenantId: string,
  tokenId: string,
  at: Date,
): Promise<ApiTokenRow | undefined> {
  const [row] = await tx
    .update(apiTokens)
    .set({ revokedAt: at })
    .where(and(eq(apiTokens.tenantId, tenantId), eq(apiTokens.id, tokenId), isNull(apiTokens.revokedAt)))
    .returning();
  return row;
}

/** Records use at most once a minute per token, so authentication stays a read on the hot path. */
export async function touchToken(tx: Executor, tenantId: string, tokenId: string, at: Date): Promise<void> {
  const aMinuteAgo = new Date(at.getTime() - 60_000);
  await tx
    .update(apiTokens)
    .set({ lastUsedAt: at })
    .where(
      and(
        eq(apiTokens.tenantId, tenantId),
        eq(apiTokens.id, tokenId),
        or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, aMinuteAgo)),
      ),
    );
}
