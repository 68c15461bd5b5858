import { insertFlowJobs } from '@cartwright/repository';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

// GET /api/automation/executions: status filters from the query string (one or repeated), the
// cursor, and the shop's unresolved counts on every answer.

let h: Harness;
const FLOW = '0190f0c8-0000-7000-8000-0000000eb001';
const ids = { uncertain: '', failed: '' };

beforeAll(async () => {
  h = await createHarness();
  const T0 = Date.parse('2025-03-01T10:00:00.000Z');
  const job = (status: 'uncertain' | 'failed' | 'finished', second: number) => {
    const at = new Date(T0 + second * 1000);
    return {
      tenantId: h.shopA.tenantId,
      id: h.services.ids.next(),
      flowId: FLOW,
      flowRevision: 1,
      eventSequence: second + 1,
      eventName: 'order.placed',
      subject: {},
      definition: { flow: {}, rules: [] },
      actor: { kind: 'system' as const },
      status,
      currentNode: null,
      trace: [],
      createdAt: at,
      updatedAt: at,
    };
  };
  const uncertain = job('uncertain', 0);
  const failed = job('failed', 1);
  ids.uncertain = uncertain.id;
  ids.failed = failed.id;
  await h.database.transaction((tx) =>
    insertFlowJobs(tx, [
      uncertain,
      failed,
      ...Array.from({ length: 120 }, (_, index) => job('finished', 2 + index)),
    ]),
  );
});
afterAll(async () => h?.close());

const get = (query: string) => h.call('GET', `/api/automation/executions${query}`, { token: h.shopA.token });

describe('GET /api/automation/executions', () => {
  it('takes one status or several from the query string and always counts the unresolved jobs', async () => {
    const one = await get('?status=uncertain');
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ next: null, unresolved: { uncertain: 1, failed: 1 } });
    expect((one.body.items as { id: string }[]).map((item) => item.id)).toEqual([ids.uncertain]);

    const both = await get('?status=uncertain&status=failed&limit=10');
    expect((both.body.items as { id: string }[]).map((item) => item.id)).toEqual([ids.failed, ids.uncertain]);

    const latest = await get('?limit=100');
    expect(latest.body.items).toHaveLength(100);
    expect(latest.body.unresolved).toEqual({ uncertain: 1, failed: 1 });
    const rest = await get(`?limit=100&after=${latest.body.next as string}`);
    expect((rest.body.items as { id: string }[]).map((item) => item.id).slice(-2)).toEqual([
      ids.failed,
      ids.uncertain,
    ]);
    expect(rest.body.next).toBeNull();
  });

  it('answers 422 for an unknown status or an empty time range', async () => {
    const unknown = await get('?status=stuck');
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe('VALIDATION_FAILED');
    const empty = await get('?createdFrom=2025-03-01T10:00:00Z&createdBefore=2025-03-01T09:00:00Z');
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual([
      { pointer: '/createdBefore', message: 'must be later than createdFrom' },
    ]);
  });
});
