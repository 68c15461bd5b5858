/**
 * A standalone worker process: `PROCESS_ROLE=<worker role>` (PostgreSQL), or `all` for every worker
 * role on embedded storage. Binds no port; logs JSON lines on stderr; SIGTERM/SIGINT stop it gracefully.
 */
import { createDatabase, type Database, DataDirectoryInUseError } from '@cartwright/repository';
import { createServices } from '@cartwright/service';
import { readWorkerEnv } from './env.ts';
import { describeError, startWorkers, writeJsonLine } from './workers.ts';

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
    if (!(error instanceof DataDirectoryInUseError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 1;
  }
  const handle = startWorkers(createServices(database), {
    roles: config.roles,
    pollMs: config.pollMs,
    leaseMs: config.leaseMs,
    log: writeJsonLine,
  });
  writeJsonLine({
    level: 'info',
    msg: 'worker process ready',
    role: config.processRole,
    storage: database.kind,
    pid: process.pid,
  });
  const signal = await stopSignal;
  writeJsonLine({ level: 'info', msg: 'shutting down', signal, owner: handle.owner });
  await handle.stop();
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
