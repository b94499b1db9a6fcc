import { type RawBuilder, sql } from 'kysely';
import type { DbOrTx } from '../../db/database.js';
import { engineOf } from '../../db/engine-sql.js';
import type { NamedSpan } from '../../shared/dashboard-period.js';
import { readTimeZone } from '../settings/settings.repository.js';
import { num } from './sql-number.js';
import {
  ITEM_COLUMNS,
  itemsFromLines,
  SIZE_COLUMNS,
  type SpanKey,
  sizesFromLines,
} from './summary-item-rows.js';
import { paidSpans } from './summary-refresh.js';
import { DAY_COLUMNS, dayRowsQuery, inChunks, inSummaryTransaction } from './summary-rows.js';

/** A summary row that is not what the orders say: `expected` null = a row too many, `actual` null = missing. */
export type SummaryDisagreement = {
  table:
    | 'dashboard_state'
    | 'dashboard_days'
    | 'dashboard_months'
    | 'dashboard_day_items'
    | 'dashboard_day_sizes'
    | 'dashboard_month_sizes';
  key: string;
  expected: string | null;
  actual: string | null;
};

type Row = Record<string, unknown>;

/** The columns that are figures (and the title) rather than a part of the row's key. */
const FIGURES = new Set([
  'revenue_minor',
  'orders',
  'discounts_minor',
  'units',
  'returning_orders',
  'title',
  'sold',
]);

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
  type Summed = {
    table: Exclude<SummaryDisagreement['table'], 'dashboard_state'>;
    spans: NamedSpan[];
    key: SpanKey;
    columns: readonly string[];
    rows: (chunk: NamedSpan[], key: SpanKey) => RawBuilder<unknown>;
  };
  const summed: Summed[] = [
    {
      table: 'dashboard_days',
      spans: days,
      key: 'day',
      columns: DAY_COLUMNS,
      rows: (c) => dayRowsQuery(db, c),
    },
    { table: 'dashboard_day_items', spans: days, key: 'day', columns: ITEM_COLUMNS, rows: items },
    { table: 'dashboard_day_sizes', spans: days, key: 'day', columns: SIZE_COLUMNS, rows: sizes },
    // The months from the lines, not from the day rows the refresh sums them from: a month is held to its orders.
    { table: 'dashboard_months', spans: months, key: 'month', columns: ITEM_COLUMNS, rows: items },
    { table: 'dashboard_month_sizes', spans: months, key: 'month', columns: SIZE_COLUMNS, rows: sizes },
  ];
  function items(chunk: NamedSpan[], key: SpanKey): RawBuilder<unknown> {
    return itemsFromLines(db, chunk, key);
  }
  function sizes(chunk: NamedSpan[], key: SpanKey): RawBuilder<unknown> {
    return sizesFromLines(db, chunk, key);
  }
  for (const { table, spans, key, columns, rows } of summed) {
    // dashboard_days' columns name the day already; the others' key column comes first.
    const all = table === 'dashboard_days' ? columns : [key, ...columns];
    const keyColumns = all.length - columns.filter((c) => FIGURES.has(c)).length;
    const expected: Row[] = [];
    for (const chunk of inChunks(spans))
      expected.push(...((await rows(chunk, key).execute(db)).rows as Row[]));
    const actual = (await sql`SELECT * FROM ${sql.table(table)}`.execute(db)).rows as Row[];
    out.push(...differences(table, keyed(expected, keyColumns, all), keyed(actual, keyColumns, all)));
  }
  return out;
}
