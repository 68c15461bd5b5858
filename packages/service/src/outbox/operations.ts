import { listCursors, listEventStatistics, listEvents, outboxHead } from '@cartwright/repository';
import * as v from 'valibot';
import { ok } from '../kernel/errors.ts';
import { defineOperation } from '../kernel/registry.ts';
import {
  EmptyInput,
  INT64_SAFE,
  IntegerIn,
  iso,
  Limit,
  NullableTimestamp,
  Timestamp,
  Uuid,
} from '../kernel/schemas.ts';

const Event = v.object({
  sequence: v.number(),
  id: Uuid,
  name: v.string(),
  payload: v.unknown(),
  actor: v.unknown(),
  occurredAt: Timestamp,
});

export const listShopEvents = defineOperation({
  name: 'events.list',
  summary: 'The shop’s committed outbox events in sequence order (page with `after`).',
  http: { method: 'GET', path: '/api/events' },
  permission: 'settings.read',
  readOnly: true,
  input: v.object({
    /** An outbox sequence (a `bigint` column). */
    after: v.optional(IntegerIn(0, INT64_SAFE.max, 'an event sequence')),
    name: v.optional(v.pipe(v.string(), v.maxLength(200))),
    limit: Limit,
  }),
  output: v.object({ items: v.array(Event), next: v.nullable(v.number()) }),
  async handler({ services, tenantId }, input) {
    const rows = await listEvents(services.database.db, tenantId, {
      afterSequence: input.after,
      name: input.name,
      limit: input.limit + 1,
    });
    const page = rows.slice(0, input.limit);
    return ok({
      items: page
        .map((row) => ({ ...row, occurredAt: iso(row.occurredAt) }))
        .map(({ tenantId: _, ...event }) => event),
      next: rows.length > input.limit ? page.at(-1)!.sequence : null,
    });
  },
});

export const describeEventProcessing = defineOperation({
  name: 'events.status',
  summary: 'How far each consumer has processed the shop’s outbox, and event counts per name.',
  http: { method: 'GET', path: '/api/events/status' },
  permission: 'settings.read',
  readOnly: true,
  input: EmptyInput,
  output: v.object({
    head: v.number(),
    consumers: v.array(
      v.object({
        consumer: v.string(),
        position: v.number(),
        lag: v.number(),
        leaseExpiresAt: NullableTimestamp,
      }),
    ),
    counts: v.array(v.object({ name: v.string(), count: v.number(), lastSequence: v.number() })),
  }),
  async handler({ services, tenantId }) {
    const db = services.database.db;
    const [head, cursors, statistics] = await Promise.all([
      outboxHead(db, tenantId),
      listCursors(db, tenantId),
      listEventStatistics(db, tenantId),
    ]);
    return ok({
      head,
      consumers: cursors.map((cursor) => ({
        consumer: cursor.consumer,
        position: cursor.position,
        lag: head - cursor.position,
        leaseExpiresAt: iso(cursor.leaseExpiresAt),
      })),
      counts: statistics.map((row) => ({ name: row.name, count: row.count, lastSequence: row.lastSequence })),
    });
  },
});
