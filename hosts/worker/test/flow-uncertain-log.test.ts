import { findFlowJob, insertFlowJobs, insertPendingReceipts } from '@cartwright/repository';
import { createTestDatabase, type TestDatabase } from '@cartwright/repository/testing';
import { createServices, createShop, flowRunner, type Services } from '@cartwright/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from '../src/index.ts';
import { collectLog } from './outbox-state.ts';

// A job that becomes uncertain (its step's receipt is pending: a worker was lost inside the
// action) is logged as a warning naming the job, so operators see it beside the merchant's view.

let database: TestDatabase;
let services: Services;
let tenantId: string;
const FLOW = '0190f0c8-0000-7000-8000-0000000fa101';
const JOB = '0190f0c8-0000-7000-8000-0000000fa102';
const OTHER_JOB = '0190f0c8-0000-7000-8000-0000000fa103';

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  ({ tenantId } = await createShop(services, { name: 'Uncertain shop' }));
  const flow = {
    name: { en: 'Tag' },
    trigger: 'order.placed',
    condition: null,
    pipeline: {
      entry: 'tag',
      nodes: [
        { id: 'tag', kind: 'action', action: 'action.add.order.tag', config: { tags: ['x'] }, next: null },
      ],
    },
  };
  const job = (id: string, eventSequence: number) => ({
    tenantId,
    id,
    flowId: FLOW,
    flowRevision: 1,
    eventSequence,
    eventName: 'order.placed',
    subject: {},
    definition: { flow, rules: [] },
    actor: { kind: 'system' } as const,
    status: 'queued' as const,
    currentNode: 'tag',
    trace: [],
  });
  await database.transaction(async (tx) => {
    // Both jobs are due at their action; only JOB's step has a receipt left by a lost worker.
    await insertFlowJobs(tx, [job(JOB, 1), { ...job(OTHER_JOB, 2), currentNode: null }]);
    await insertPendingReceipts(tx, [{ tenantId, key: `flow:${JOB}:tag`, jobId: JOB, nodeId: 'tag' }]);
  });
});
afterAll(async () => database?.close());

describe('the flow runner', () => {
  it('warns once per job it leaves uncertain, naming the job', async () => {
    const sink = collectLog();
    const handle = startWorkers(services, {
      roles: ['app-worker'],
      runners: [flowRunner],
      owner: 'finder',
      pollMs: 50,
      log: sink.log,
    });
    await handle.idle();
    await handle.stop();

    expect((await findFlowJob(database.db, tenantId, JOB))?.status).toBe('uncertain');
    expect((await findFlowJob(database.db, tenantId, OTHER_JOB))?.status).toBe('finished');
    expect(sink.lines.filter((line) => line.level !== 'info')).toEqual([
      {
        level: 'warn',
        msg: 'flow job uncertain',
        owner: 'finder',
        tenantId,
        jobId: JOB,
        flowId: FLOW,
        nodeId: 'tag',
      },
    ]);
    expect(sink.lines).toContainEqual({ level: 'info', msg: 'flow jobs ran', owner: 'finder', jobs: 2 });
  });
});
