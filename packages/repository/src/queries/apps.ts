import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../database.ts';
import { appRecords, apps, appVersions } from '../schema.ts';
import {
  deleteRows,
  findRow,
  insertRow,
  listPage,
  type Page,
  type RowLock,
  reviseRows,
  selectRows,
} from './tenant-rows.ts';

export type AppRow = typeof apps.$inferSelect;
export type AppVersionRow = typeof appVersions.$inferSelect;
export type AppRecordRow = typeof appRecords.$inferSelect;

/** The shop's installed app `appId`; `lock` holds it until the transaction ends. */
export function findApp(tx: Executor, tenantId: string, appId: string, lock?: RowLock) {
  return findRow(tx, apps, tenantId, [eq(apps.appId, appId)], lock);
}

/** The shop's installed apps, by app id. */
export function listApps(tx: Executor, tenantId: string): Promise<AppRow[]> {
  return selectRows(tx, apps, tenantId, { orderBy: [apps.appId] });
}

export function insertApp(tx: Executor, app: typeof apps.$inferInsert): Promise<AppRow> {
  return insertRow(tx, apps, app);
}

/** Replaces the installed version at `revision`; undefined when the revision moved meanwhile. */
export async function updateAppAtRevision(
  tx: Executor,
  tenantId: string,
  appId: string,
  revision: number,
  changes: Pick<AppRow, 'version' | 'manifest' | 'actionSettings'>,
  at: Date,
): Promise<AppRow | undefined> {
  const [row] = await reviseRows(
    tx,
    apps,
    tenantId,
    [eq(apps.appId, appId), eq(apps.revision, revision)],
    changes,
    at,
  );
  return row;
}

/** Removes the installed app (its versions and records stay unless purged); answers whether it existed. */
export async function deleteApp(tx: Executor, tenantId: string, appId: string): Promise<boolean> {
  return (await deleteRows(tx, apps, tenantId, [eq(apps.appId, appId)])) > 0;
}

/** The manifest the shop installed as `version` of the app, if it ever did. */
export function findAppVersion(tx: Executor, tenantId: string, appId: string, version: string) {
  return findRow(tx, appVersions, tenantId, [eq(appVersions.appId, appId), eq(appVersions.version, version)]);
}

export async function insertAppVersion(
  tx: Executor,
  version: typeof appVersions.$inferInsert,
): Promise<void> {
  await tx.insert(appVersions).values(version);
}

export function insertAppRecord(tx: Executor, record: typeof appRecords.$inferInsert): Promise<AppRecordRow> {
  return insertRow(tx, appRecords, record);
}

/** A record of the app's entity by id; `lock` holds it. */
export function findAppRecord(
  tx: Executor,
  tenantId: string,
  appId: string,
  entity: string,
  id: string,
  lock?: RowLock,
) {
  return findRow(
    tx,
    appRecords,
    tenantId,
    [eq(appRecords.appId, appId), eq(appRecords.entity, entity), eq(appRecords.id, id)],
    lock,
  );
}

/** Writes a record's data at `revision`; undefined when the revision moved meanwhile. */
export async function updateAppRecordAtRevision(
  tx: Executor,
  tenantId: string,
  id: string,
  revision: number,
  data: Record<string, unknown>,
  at: Date,
): Promise<AppRecordRow | undefined> {
  const [row] = await reviseRows(
    tx,
    appRecords,
    tenantId,
    [eq(appRecords.id, id), eq(appRecords.revision, revision)],
    { data },
    at,
  );
  return row;
}

export async function deleteAppRecord(tx: Executor, tenantId: string, id: string): Promise<boolean> {
  return (await deleteRows(tx, appRecords, tenantId, [eq(appRecords.id, id)])) > 0;
}

/** Deletes every record of the app in the shop (an uninstall that purges); answers how many. */
export function purgeAppRecords(tx: Executor, tenantId: string, appId: string): Promise<number> {
  return deleteRows(tx, appRecords, tenantId, [eq(appRecords.appId, appId)]);
}

/**
 * One page of the entity's records by id, where each field of `equals` has exactly that value
 * (`data @> equals`, served by the GIN index).
 */
export function listAppRecords(
  tx: Executor,
  tenantId: string,
  appId: string,
  entity: string,
  equals: Record<string, unknown>,
  page: Page,
): Promise<AppRecordRow[]> {
  const filter =
    Object.keys(equals).length > 0 ? sql`${appRecords.data} @> ${JSON.stringify(equals)}::jsonb` : undefined;
  return listPage(tx, appRecords, tenantId, { key: appRecords.id, direction: 'asc' }, page, [
    and(eq(appRecords.appId, appId), eq(appRecords.entity, entity)),
    filter,
  ]);
}
