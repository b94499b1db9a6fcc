import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import { engineOf } from '../../db/engine-sql.js';
import { readTimeZone } from '../settings/settings.repository.js';
import { num } from './sql-number.js';
import { paidSpans } from './summary-refresh.js';
import {
  DAY_COLUMNS,
  dayRowsQuery,
  inChunks,
  inSummaryTransaction,
  MONTH_COLUMNS,
  monthRowsQuery,
} from './summary-rows.js';

/** A summary row that is not what the orders say: `expected` null = a row too many, `actual` null = missing. */
export type SummaryDisagreement = {
  table: 'dashboard_state' | 'dashboard_days' | 'dashboard_months';
  key: string;
  expected: string | null;
  actual: string | null;
};

type Row = Record<string, unknown>;

/** A row's key (its primary key) and its figures, as text both engines write alike. */
function keyed(rows: readonly Row[], keyColumns: number, columns: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of rows) {
    const values = columns.map((c, i) => (i < keyColumns ? String(r[c]) : String(num(r[c]))));
    // The title is text, not a figure: kept as it is.
    if ('title' in r) values[columns.indexOf('title')] = String(r.title);
    out.set(values.slice(0, keyColumns).join(' '), values.slice(keyColumns).join(' '));
  }
  return out;
}

function differences(
  table: SummaryDisagreement['table'],
  expected: Map<string, string>,
  actual: Map<string, string>,
): SummaryDisagreement[] {
  const out: SummaryDisagreement[] = [];
  for (const [key, value] of expected)
    if (actual.get(key) !== value) out.push({ table, key, expected: value, actual: actual.get(key) ?? null });
  for (const [key, value] of actual)
    if (!expected.has(key)) out.push({ table, key, expected: null, actual: value });
  return out;
}

/**
 * Every day and month of the summaries summed again from the orders in the shop's zone and compared with
 * the tables: the rows that differ, none when they agree (decision 0041 "Speed": a summary must never
 * disagree with the orders). Marks not yet read are not excused: call it after a refresh.
 */
export async function summaryDisagreements(db: DbOrTx): Promise<SummaryDisagreement[]> {
  // PostgreSQL's reads in a transaction of their own, only to turn its JIT off; SQLite's need no lock.
  return engineOf(db) === 'postgres' ? inSummaryTransaction(db, disagreementsIn) : disagreementsIn(db);
}

async function disagreementsIn(db: DbOrTx): Promise<SummaryDisagreement[]> {
  const zone = await readTimeZone(db);
  const state = await db.selectFrom('dashboard_state').select('zone').where('id', '=', 1).executeTakeFirst();
  const out: SummaryDisagreement[] = [];
  if (state?.zone !== zone)
    out.push({ table: 'dashboard_state', key: 'zone', expected: zone, actual: state?.zone ?? null });
  const { days, months } = await paidSpans(db, zone);
  const expectedDays: Row[] = [];
  for (const chunk of inChunks(days))
    expectedDays.push(...((await dayRowsQuery(db, chunk).execute(db)).rows as Row[]));
  const expectedMonths: Row[] = [];
  for (const chunk of inChunks(months))
    expectedMonths.push(...((await monthRowsQuery(db, chunk).execute(db)).rows as Row[]));
  const actualDays = (await sql`SELECT * FROM dashboard_days`.execute(db)).rows as Row[];
  const actualMonths = (await sql`SELECT * FROM dashboard_months`.execute(db)).rows as Row[];
  out.push(
    ...differences('dashboard_days', keyed(expectedDays, 3, DAY_COLUMNS), keyed(actualDays, 3, DAY_COLUMNS)),
    ...differences(
      'dashboard_months',
      keyed(expectedMonths, 4, MONTH_COLUMNS),
      keyed(actualMonths, 4, MONTH_COLUMNS),
    ),
  );
  return out;
}
