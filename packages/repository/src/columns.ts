import { timestamp } from 'drizzle-orm/pg-core';

/** `created_at` and `updated_at`, UTC, set by the database unless the writer gives its clock's time. */
export const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
};
