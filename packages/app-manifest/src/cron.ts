import { CronExpressionParser } from 'cron-parser';

export const CRON_MAX_LENGTH = 100;

// cron-parser computes hashed values (`H`) from a seed that would differ per process, and accepts
// aliases such as `@daily`; neither belongs in a stored schedule, so both are refused before it parses.
const HASHED = /(^|,)h/i;

/**
 * Why `expression` is not a schedule's cron, or null when it is one: six fields (seconds first)
 * read in UTC, the seconds field a single number (so a schedule runs at most once a minute), no
 * hashed values, and a date that can occur (`0 0 0 31 2 *` cannot).
 */
export function cronProblem(expression: string): string | null {
  if (expression.length > CRON_MAX_LENGTH)
    return `a cron expression has at most ${CRON_MAX_LENGTH} characters`;
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 6) {
    return `a cron expression has six fields (second minute hour day-of-month month day-of-week), found ${fields.length}`;
  }
  if (!/^\d{1,2}$/.test(fields[0]!)) {
    return 'the seconds field is a single number (0-59): a schedule runs at most once a minute';
  }
  if (fields.some((field) => HASHED.test(field))) return 'hashed values (H) are not supported';
  try {
    // A fixed start date: parsing must not read the clock (the package is pure).
    CronExpressionParser.parse(expression, { tz: 'UTC', strict: true, currentDate: 0 });
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
