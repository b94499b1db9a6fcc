import { type RawBuilder, sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import { engineOf } from '../../db/engine-sql.js';
import type { PeriodDay } from '../../shared/dashboard-period.js';

/**
 * The shop's days of a period as a CTE the database joins paid_at on: `days(day, starts_at, ends_at)`, one
 * row a day, the boundaries computed in JS (shared/dashboard-period.ts) because neither engine knows the
 * shop's zone rules the way Intl does, and both must cut the days at the same instants. PostgreSQL compares
 * timestamptz, so its boundaries are cast; SQLite compares the ISO text the store writes.
 */
export function daysCte(db: DbOrTx, days: readonly PeriodDay[]): RawBuilder<unknown> {
  if (days.length === 0) throw new Error('A period has at least one day');
  const postgres = engineOf(db) === 'postgres';
  const rows = days.map((d) =>
    postgres
      ? sql`(${d.day}, CAST(${d.startsAt} AS timestamptz), CAST(${d.endsAt} AS timestamptz))`
      : sql`(${d.day}, ${d.startsAt}, ${d.endsAt})`,
  );
  return sql`days(day, starts_at, ends_at) AS (VALUES ${sql.join(rows)})`;
}

/** A list of currencies as a CTE `currencies(currency)`, to give every day a row in each. */
export function currenciesCte(currencies: readonly string[]): RawBuilder<unknown> {
  if (currencies.length === 0) throw new Error('At least one currency');
  return sql`currencies(currency) AS (VALUES ${sql.join(currencies.map((c) => sql`(${c})`))})`;
}

/** PostgreSQL answers sums and counts of bigints as text; SQLite as numbers. */
export function num(value: unknown): number {
  return Number(value ?? 0);
}
