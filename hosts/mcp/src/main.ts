import { createDatabase, type Database, DataDirectoryInUseError } from '@cartwright/repository';
import {
  createServices,
  EnvironmentError,
  type OutsideServices,
  outsideServicesOf,
  readEnvironment,
} from '@cartwright/service';
import { mcpEnvironment } from './env.ts';
import { EXIT_CONFIGURATION, runStdioServer } from './stdio.ts';

// stdout carries the protocol: every diagnostic goes to stderr, one line each.
function report(message: string): void {
  process.stderr.write(`cartwright-mcp: ${message}\n`);
}

async function main(): Promise<number> {
  let env: ReturnType<typeof readEnvironment<typeof mcpEnvironment>>;
  let outside: OutsideServices;
  try {
    env = readEnvironment(mcpEnvironment, process.env);
    outside = outsideServicesOf(env);
  } catch (error) {
    if (!(error instanceof EnvironmentError)) throw error;
    report(error.message);
    return EXIT_CONFIGURATION;
  }
  let database: Database;
  try {
    database = await createDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.CARTWRIGHT_DATA_DIR });
  } catch (error) {
    await outside.sandbox.close();
    // DataDirectoryInUseError explains itself; anything else is storage that cannot be reached.
    report(
      error instanceof DataDirectoryInUseError
        ? error.message
        : `could not open the database: ${String(error)}`,
    );
    return 1;
  }
  const stop = new AbortController();
  process.once('SIGTERM', () => stop.abort());
  process.once('SIGINT', () => stop.abort());
  try {
    return await runStdioServer({
      services: createServices(database, outside),
      token: env.CARTWRIGHT_TOKEN,
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
      signal: stop.signal,
    });
  } finally {
    await outside.sandbox.close();
    await database.close();
  }
}

process.exitCode = await main();
