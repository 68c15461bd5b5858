import {
  APP_DELIVERY_STATUSES,
  type AppDeliveryAttemptRow,
  type AppDeliveryCircuitRow,
  type AppDeliveryRow,
  closeAppDeliveryCircuit,
  findApp,
  findAppDeliveryCircuit,
  listAppDeliveries,
  listAppDeliveryAttempts,
  requeueAppDelivery,
} from '@cartwright/repository';
import * as v from 'valibot';
import { fail, ok } from '../kernel/errors.ts';
import { type AnyOperation, defineOperation } from '../kernel/registry.ts';
import { iso, Limit, NullableTimestamp, Timestamp, Uuid } from '../kernel/schemas.ts';
import { AppId } from './operations.ts';

// The delivery log of an app's event deliveries (issue 16, decision 0040): each delivery with its
// attempts (times, durations, status codes, the adapter's one-line error; never a body, a header
// or the credential), a redelivery, and the merchant's re-enabling of an app whose circuit opened.

const Attempt = v.object({
  attempt: v.number(),
  startedAt: Timestamp,
  durationMs: v.number(),
  statusCode: v.nullable(v.number()),
  outcome: v.picklist(['delivered', 'failed']),
  error: v.nullable(v.string()),
});

const Delivery = v.object({
  id: v.string(),
  appId: v.string(),
  event: v.object({ id: v.string(), name: v.string(), sequence: v.number(), occurredAt: Timestamp }),
  status: v.picklist(APP_DELIVERY_STATUSES),
  /** Attempts since the delivery was queued (or queued again). */
  attempts: v.number(),
  availableAt: Timestamp,
  lastStatusCode: v.nullable(v.number()),
  lastError: v.nullable(v.string()),
  deliveredAt: NullableTimestamp,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  /** Every attempt ever made, oldest first (a redelivery keeps the earlier ones). */
  log: v.array(Attempt),
});

const Circuit = v.object({
  open: v.boolean(),
  consecutiveFailures: v.number(),
  openedAt: NullableTimestamp,
});

function attemptView(row: AppDeliveryAttemptRow): v.InferOutput<typeof Attempt> {
  return {
    attempt: row.attempt,
    startedAt: iso(row.startedAt),
    durationMs: row.durationMs,
    statusCode: row.statusCode,
    outcome: row.outcome,
    error: row.error,
  };
}

function deliveryView(
  row: AppDeliveryRow,
  log: readonly AppDeliveryAttemptRow[],
): v.InferOutput<typeof Delivery> {
  return {
    id: row.id,
    appId: row.appId,
    event: { id: row.eventId, name: row.eventName, sequence: row.sequence, occurredAt: iso(row.occurredAt) },
    status: row.status,
    attempts: row.attempts,
    availableAt: iso(row.availableAt),
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    deliveredAt: iso(row.deliveredAt),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    log: log.filter((attempt) => attempt.deliveryId === row.id).map(attemptView),
  };
}

function circuitView(row: AppDeliveryCircuitRow | undefined): v.InferOutput<typeof Circuit> {
  return {
    open: row?.openedAt != null,
    consecutiveFailures: row?.consecutiveFailures ?? 0,
    openedAt: iso(row?.openedAt ?? null),
  };
}

export const listDeliveries = defineOperation({
  name: 'apps.deliveries.list',
  summary:
    'The delivery log of an app’s event subscriptions, newest first (page with `after`, a delivery id), filtered by `status` (one or several): each delivery with its event, status, attempts and every attempt’s start, duration, status code and error; and the app’s circuit (open after consecutive failures until `apps.deliveries.resume`).',
  http: { method: 'GET', path: '/api/apps/:appId/deliveries' },
  permission: 'apps.read',
  readOnly: true,
  input: v.object({
    appId: AppId,
    limit: Limit,
    after: v.optional(Uuid),
    status: v.optional(
      v.pipe(
        v.array(v.picklist(APP_DELIVERY_STATUSES)),
        v.minLength(1),
        v.maxLength(APP_DELIVERY_STATUSES.length),
      ),
    ),
  }),
  output: v.object({ items: v.array(Delivery), circuit: Circuit }),
  async handler({ services, tenantId }, input) {
    const db = services.database.db;
    const rows = await listAppDeliveries(db, tenantId, {
      appId: input.appId,
      statuses: input.status,
      after: input.after,
      limit: input.limit,
    });
    const log = await listAppDeliveryAttempts(
      db,
      tenantId,
      rows.map((row) => row.id),
    );
    return ok({
      items: rows.map((row) => deliveryView(row, log)),
      circuit: circuitView(await findAppDeliveryCircuit(db, tenantId, input.appId)),
    });
  },
});

export const redeliverDelivery = defineOperation({
  name: 'apps.deliveries.redeliver',
  summary:
    'Queues a delivered or failed delivery again, due at once, with a fresh attempt budget and the same delivery id (its log is kept). A pending delivery is left as it is, so repeating the call changes nothing. While the app’s circuit is open the delivery waits for `apps.deliveries.resume`.',
  http: { method: 'POST', path: '/api/apps/:appId/deliveries/:deliveryId/redeliver' },
  permission: 'apps.write',
  readOnly: false,
  input: v.strictObject({ appId: AppId, deliveryId: Uuid }),
  output: v.object({ delivery: Delivery }),
  async handler({ services, tenantId }, input) {
    return services.database.transaction(async (tx) => {
      const row = await requeueAppDelivery(tx, tenantId, input.appId, input.deliveryId);
      if (!row) return fail('NOT_FOUND', 'No such delivery of this app exists in this shop.');
      const log = await listAppDeliveryAttempts(tx, tenantId, [row.id]);
      return ok({ delivery: deliveryView(row, log) });
    });
  },
});

export const resumeDeliveries = defineOperation({
  name: 'apps.deliveries.resume',
  summary:
    'Re-enables an app’s deliveries after its circuit opened: the circuit closes, its count of consecutive failures starts again from zero, and its pending deliveries are due at once. Closing a closed circuit changes nothing.',
  http: { method: 'POST', path: '/api/apps/:appId/deliveries/resume' },
  permission: 'apps.manage',
  readOnly: false,
  input: v.strictObject({ appId: AppId }),
  output: v.object({ circuit: Circuit, wasOpen: v.boolean() }),
  async handler({ services, tenantId }, input) {
    return services.database.transaction(async (tx) => {
      if (!(await findApp(tx, tenantId, input.appId))) {
        return fail('APP_NOT_INSTALLED', `The app ${input.appId} is not installed in this shop.`);
      }
      const wasOpen = await closeAppDeliveryCircuit(tx, tenantId, input.appId);
      return ok({ circuit: circuitView(await findAppDeliveryCircuit(tx, tenantId, input.appId)), wasOpen });
    });
  },
});

/** The delivery log's operations, in the order the registry lists them. */
export const appDeliveryOperations: readonly AnyOperation[] = [
  listDeliveries,
  redeliverDelivery,
  resumeDeliveries,
];
