import { createDatabase, DataDirectoryInUseError } from '@cartwright/repository';
import {
  createServices,
  EnvironmentError,
  type OutsideServices,
  outsideServicesOf,
  readEnvironment,
} from '@cartwright/service';
import { httpEnvironment } from './env.ts';
import { createLogger } from './logger.ts';
import { startHttpServer } from './server.ts';

// HTTP only (PROCESS_ROLE=http): serves the API and consumes no outbox. `cartwright start` runs
// this together with the workers.
let outside: OutsideServices | undefined;
try {
  const env = readEnvironment(httpEnvironment, process.env);
  const logger = createLogger(env.LOG_LEVEL);
  outside = outsideServicesOf(env);
  const database = await createDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.CARTWRIGHT_DATA_DIR });
  const server = await startHttpServer(createServices(database, outside), {
    port: env.PORT,
    host: env.HOST,
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    corsOrigins: env.CORS_ORIGINS,
    logger,
  });
  logger.info({ port: server.port, storage: database.kind }, 'listening');
  const sandbox = outside.sandbox;
  const shutdown = async () => {
    await server.close();
    await sandbox.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
} catch (error) {
  await outside?.sandbox.close();
  if (error instanceof EnvironmentError || error instanceof DataDirectoryInUseError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
