import { eq, isNull, lt, or } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { apiTokens } from '../schema.ts';
import { deleteRows, findRow, insertRow, inTenant, listPage } from './tenant-rows.ts';

export type ApiTokenRow = typeof apiTokens.$inferSelect;

export function insertToken(tx: Executor, token: typeof apiTokens.$inferInsert): Promise<ApiTokenRow> {
  return insertRow(tx, apiTokens, token);
}

/** The token with this hash in this shop, if it exists (revoked and expired ones included). */
export function findTokenByHash(
  tx: Executor,
  tenantId: string,
  tokenHash: string,
): Promise<ApiTokenRow | undefined> {
  return findRow(tx, apiTokens, tenantId, [eq(apiTokens.tokenHash, tokenHash)]);
}

export function findToken(tx: Executor, tenantId: string, tokenId: string): Promise<ApiTokenRow | undefined> {
  return findRow(tx, apiTokens, tenantId, [eq(apiTokens.id, tokenId)]);
}

export interface TokenPage {
  readonly limit: number;
  /** Id of the last token of the previous page (tokens are listed newest first by id, UUIDv7). */
  readonly after?: string | undefined;
  /** The access grants of this sales channel; absent: the shop's staff tokens. */
  readonly channelId?: string | undefined;
}

/** Staff tokens (no channel), or the access grants of one channel. */
function ofChannel(channelId: string | undefined) {
  return channelId ? eq(apiTokens.channelId, channelId) : isNull(apiTokens.channelId);
}

export function listTokens(tx: Executor, tenantId: string, page: TokenPage): Promise<ApiTokenRow[]> {
  return listPage(tx, apiTokens, tenantId, { key: apiTokens.id, direction: 'desc' }, page, [
    ofChannel(page.channelId),
  ]);
}

/** Revokes a live staff token, or with `channelId` a live access grant of that channel. */
export async function revokeToken(
  tx: Executor,
  tenantId: string,
  tokenId: string,
  at: Date,
  channelId?: string,
): Promise<ApiTokenRow | undefined> {
  const [row] = await tx
    .update(apiTokens)
    .set({ revokedAt: at })
    .where(
      inTenant(
        apiTokens,
        tenantId,
        eq(apiTokens.id, tokenId),
        ofChannel(channelId),
        isNull(apiTokens.revokedAt),
      ),
    )
    .returning();
  return row;
}

/** Deletes every access grant of a channel (a channel saved again under its id starts without). */
export async function deleteChannelGrants(tx: Executor, tenantId: string, channelId: string): Promise<void> {
  await deleteRows(tx, apiTokens, tenantId, [eq(apiTokens.channelId, channelId)]);
}

/** Records use at most once a minute per token, so authentication stays a read on the hot path. */
export async function touchToken(tx: Executor, tenantId: string, tokenId: string, at: Date): Promise<void> {
  const aMinuteAgo = new Date(at.getTime() - 60_000);
  await tx
    .update(apiTokens)
    .set({ lastUsedAt: at })
    .where(
      inTenant(
        apiTokens,
        tenantId,
        eq(apiTokens.id, tokenId),
        or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, aMinuteAgo)),
      ),
    );
}
