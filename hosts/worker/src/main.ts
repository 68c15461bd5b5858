/**
 * A standalone worker process: `PROCESS_ROLE=<worker role>` (PostgreSQL), or `all` for every worker
 * role on embedded storage. Binds no port; logs JSON lines on stderr; SIGTERM/SIGINT stop it gracefully.
 */
import { runWorkerProcess } from './process.ts';

runWorkerProcess();
