/**
 * Column builders the tables of more than one aggregate use; not tables, so `schema.ts` does not
 * re-export them.
 */
import { customType, integer, timestamp } from 'drizzle-orm/pg-core';

export const stamps = {
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
};
/** Optimistic concurrency: every edit states the version it was based on. */
export const version = { version: integer('version').notNull().default(1) };

/** PostgreSQL `bytea` as a Node Buffer (drizzle has no built-in column for it). */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => value,
  fromDriver: (value) => Buffer.from(value),
});
