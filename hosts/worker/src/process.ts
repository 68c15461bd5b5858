import { createDatabase, type Database, DataDirectoryInUseError } from '@cartwright/repository';
import { createServices } from '@cartwright/service';
import { readWorkerEnv } from './env.ts';
import { describeError, startWorkers, type WorkerOptions, writeJsonLine } from './workers.ts';

/**
 * Runs a worker process configured by the environment until SIGTERM/SIGINT, then stops
 * gracefully and exits. `extra` adds options the environment does not carry (a lease owner, a
 * test seam); main.ts passes none.
 */
export function runWorkerProcess(extra: Partial<WorkerOptions> = {}): void {
  // Listen before start-up, so a signal during start-up still ends in a graceful stop.
  const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });

  async function main(): Promise<number> {
    const env = readWorkerEnv();
    if (!env.ok) {
      process.stderr.write(`${env.message}\n`);
      return 1;
    }
    const { config } = env;
    let database: Database;
    try {
      database = await createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    } catch (error) {
      await config.outside.sandbox.close();
      if (!(error instanceof DataDirectoryInUseError)) throw error;
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    const handle = startWorkers(createServices(database, config.outside), {
      roles: config.roles,
      pollMs: config.pollMs,
      leaseMs: config.leaseMs,
      jobBatchSize: config.flowBatch,
      log: writeJsonLine,
      ...extra,
    });
    writeJsonLine({
      level: 'info',
      msg: 'worker process ready',
      role: config.processRole,
      storage: database.kind,
      owner: handle.owner,
      pid: process.pid,
    });
    const signal = await stopSignal;
    writeJsonLine({ level: 'info', msg: 'shutting down', signal, owner: handle.owner });
    await handle.stop();
    await config.outside.sandbox.close();
    await database.close();
    return 0;
  }

  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      writeJsonLine({ level: 'error', msg: 'worker process failed', error: describeError(error) });
      process.exit(1);
    },
  );
}
