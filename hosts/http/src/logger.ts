import { type Logger, pino } from 'pino';

/** Structured JSON lines on stderr (stdout stays free for CLI output and MCP stdio). */
export function createLogger(level: string, name = 'cartwright'): Logger {
  return pino({ name, level }, pino.destination(2));
}
