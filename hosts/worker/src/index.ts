export {
  needsPostgres,
  readWorkerEnv,
  WORKER_ROLES,
  type WorkerConfig,
  type WorkerConfigResult,
  workerEnvironment,
  workerTimingEnvironment,
} from './env.ts';
export {
  startWorkers,
  type WorkerHandle,
  type WorkerLogLine,
  type WorkerOptions,
  writeJsonLine,
} from './workers.ts';
