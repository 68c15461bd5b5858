import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnWorker } from './worker-process.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'cartwright-worker-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the worker process (src/main.ts)', () => {
  it('refuses a single worker role without PostgreSQL: exit 1 and one line', async () => {
    const worker = spawnWorker({ PROCESS_ROLE: 'memory-worker' });
    expect(await worker.exited).toBe(1);
    expect(worker.lines).toEqual([
      'PROCESS_ROLE=memory-worker needs PostgreSQL (set DATABASE_URL); embedded storage allows one process, use PROCESS_ROLE=all',
    ]);
  });

  it('runs every worker role on embedded storage, logs JSON lines and stops gracefully on SIGTERM', async () => {
    const worker = spawnWorker({ PROCESS_ROLE: 'all', CARTWRIGHT_DATA_DIR: dataDir, WORKER_POLL_MS: '100' });
    await worker.line((line) => line.includes('worker process ready'));
    expect(existsSync(join(dataDir, 'cartwright.lock'))).toBe(true);
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);

    const records = worker.lines.map((line) => JSON.parse(line) as { level: string; msg: string });
    expect(records.map((record) => record.msg)).toEqual([
      'workers started',
      'worker process ready',
      'shutting down',
      'workers stopped',
    ]);
    expect(records.filter((record) => record.level !== 'info')).toEqual([]);
    expect(worker.stdout.join('')).toBe('');
    // The embedded data directory is unlocked again for the next process.
    expect(existsSync(join(dataDir, 'cartwright.lock'))).toBe(false);
  });
});
