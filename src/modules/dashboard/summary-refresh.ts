import { type RawBuilder, sql, type Transaction } from 'kysely';
import type { Database, DbOrTx } from '../../db/database.js';
import { engineOf } from '../../db/engine-sql.js';
import {
  daySpans,
  daysFromTo,
  monthSpans,
  type NamedSpan,
  nextMonth,
  shopDayOf,
} from '../../shared/dashboard-period.js';
import { isTimeZone } from '../../shared/zoned-time.js';
import { type DayRows, writeDaysByDifference } from './summary-day-delta.js';
import {
  ITEM_COLUMNS,
  itemsFromLines,
  monthItemsFromDays,
  monthSizesFromDays,
  SIZE_COLUMNS,
  sizesFromLines,
} from './summary-item-rows.js';
import { moveMonths } from './summary-month-delta.js';
import { DAY_COLUMNS, dayRowsQuery, inChunks, inSummaryTransaction } from './summary-rows.js';

/** The tables summed from the orders, emptied by a rebuild. */
const SUMMARY_TABLES = [
  'dashboard_days',
  'dashboard_day_items',
  'dashboard_day_sizes',
  'dashboard_months',
  'dashboard_month_sizes',
] as const;

/**
 * Brings the dashboard's summaries up to date with the orders before the owner's period is read (decision
 * 0041 "Speed"). The triggers mark every instant whose shop day a write changed; this sums exactly those
 * days and months again and deletes the marks it read, in one transaction. Nothing marked and the same zone:
 * one small read. A changed zone (or a store whose summaries were never summed) sums everything again.
 */
export async function refreshSummary(db: DbOrTx, zone: string): Promise<void> {
  const shopZone = isTimeZone(zone) ? zone : 'UTC';
  const state = await summaryState(db);
  if (state.zone === shopZone && !state.dirty) return;
  await inSummaryTransaction(db, (tx) => refreshLocked(tx, shopZone));
}

/**
 * The marked days summed again, as refreshSummary does, but only where the summaries are already of `zone`:
 * never the whole store (the first read after an upgrade or a change of zone does that, for an owner who
 * asked). The background keeper's step (summary-keeper.ts), so that an owner's read seldom finds marks.
 * True when it summed something.
 */
export async function sumMarkedDays(db: DbOrTx, zone: string): Promise<boolean> {
  const shopZone = isTimeZone(zone) ? zone : 'UTC';
  const state = await summaryState(db);
  if (state.zone !== shopZone || !state.dirty) return false;
  return inSummaryTransaction(db, async (tx) => {
    // Another process may have rebuilt in another zone meanwhile: then the read does it, not this.
    if ((await lockedZone(tx)) !== shopZone) return false;
    await refreshLocked(tx, shopZone);
    return true;
  });
}

/** The summaries' zone and whether any mark waits, in one small read without a lock. */
async function summaryState(db: DbOrTx): Promise<{ zone: string | null; dirty: boolean }> {
  const { rows } = await sql<{ zone: string | null; dirty: unknown }>`
    SELECT (SELECT zone FROM dashboard_state WHERE id = 1) AS zone,
      EXISTS (SELECT 1 FROM dashboard_dirty) AS dirty`.execute(db);
  return { zone: rows[0]?.zone ?? null, dirty: Boolean(Number(rows[0]?.dirty)) };
}

/**
 * The summaries' zone, the state row locked: PostgreSQL's concurrent refreshers wait here for the one ahead
 * and then find its marks gone (SQLite's writer lock, taken at BEGIN IMMEDIATE, already serialises them).
 */
async function lockedZone(tx: Transaction<Database>): Promise<string | null> {
  const lock = engineOf(tx) === 'postgres' ? sql`FOR UPDATE` : sql``;
  const read = () =>
    sql<{ zone: string | null }>`SELECT zone FROM dashboard_state WHERE id = 1 ${lock}`.execute(tx);
  let { rows } = await read();
  if (rows.length === 0) {
    await sql`INSERT INTO dashboard_state (id, zone) VALUES (1, NULL) ON CONFLICT (id) DO NOTHING`.execute(
      tx,
    );
    ({ rows } = await read());
  }
  return rows[0]?.zone ?? null;
}

async function refreshLocked(tx: Transaction<Database>, zone: string): Promise<void> {
  if ((await lockedZone(tx)) !== zone) {
    await rebuild(tx, zone);
    return;
  }
  // Exactly the marks this statement sees are deleted and summed: on PostgreSQL a mark of a transaction
  // still open (even with a lower id) is not among them and waits for the next read.
  const { rows } = await sql<{ paid_at: string }>`DELETE FROM dashboard_dirty RETURNING paid_at`.execute(tx);
  if (rows.length === 0) return;
  const days = daysOfInstants(
    rows.map((r) => r.paid_at),
    zone,
  );
  const months = [...new Set(days.map((d) => d.slice(0, 7)))];
  const moved = await sumDays(tx, daySpans(days, zone), days.length <= MAX_KEYED_DAYS);
  const spans = monthSpans(months, zone);
  if (!moved || !(await moveMonths(tx, spans, moved.before, moved.after))) await sumMonths(tx, spans);
}

/**
 * The shop days the instants fall on. Each day's bounds are computed once for the span of days the marks
 * cover and each instant found among them by bisection, instead of asking Intl for every mark (a bulk
 * import marks every order it writes).
 */
export function daysOfInstants(instants: readonly string[], zone: string): string[] {
  const sorted = instants.map((i) => new Date(i).toISOString()).sort();
  const first = sorted[0];
  const last = sorted.at(-1);
  if (!first || !last) return [];
  const spans = daySpans(daysFromTo(shopDayOf(first, zone), shopDayOf(last, zone)), zone);
  const found = new Set<string>();
  for (const instant of sorted) {
    let lo = 0;
    let hi = spans.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((spans[mid]?.startsAt ?? '') <= instant) lo = mid;
      else hi = mid - 1;
    }
    const span = spans[lo];
    found.add(
      span && span.startsAt <= instant && instant < span.endsAt ? span.name : shopDayOf(instant, zone),
    );
  }
  return [...found].sort();
}

/** INSERT INTO `table` (`columns`) `rows`. */
function insert(table: string, columns: readonly string[], rows: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`INSERT INTO ${sql.table(table)} (${sql.raw(columns.join(', '))}) ${rows}`;
}

/** Up to this many marked days, the months move by the days' difference (summary-month-delta.ts). */
const MAX_KEYED_DAYS = 7;
/**
 * The days' rows summed again from their orders and lines. With `track` (a few days), the item and size rows
 * are written by difference and returned before and after (what the months move by); else deleted and
 * inserted whole, and null returned. The days' totals are a few rows a day: always rewritten.
 */
async function sumDays(
  tx: Transaction<Database>,
  spans: readonly NamedSpan[],
  track = false,
): Promise<{ before: DayRows; after: DayRows } | null> {
  for (const chunk of inChunks(spans)) {
    const names = chunk.map((s) => s.name);
    await tx.deleteFrom('dashboard_days').where('day', 'in', names).execute();
    await insert('dashboard_days', DAY_COLUMNS, dayRowsQuery(tx, chunk)).execute(tx);
    if (track) continue;
    await tx.deleteFrom('dashboard_day_items').where('day', 'in', names).execute();
    await tx.deleteFrom('dashboard_day_sizes').where('day', 'in', names).execute();
    await insert('dashboard_day_items', ['day', ...ITEM_COLUMNS], itemsFromLines(tx, chunk, 'day')).execute(
      tx,
    );
    await insert('dashboard_day_sizes', ['day', ...SIZE_COLUMNS], sizesFromLines(tx, chunk, 'day')).execute(
      tx,
    );
  }
  return track ? writeDaysByDifference(tx, spans) : null;
}

/** The months' rows summed again from their days' rows (sum the days first), every key. */
async function sumMonths(tx: Transaction<Database>, spans: readonly NamedSpan[]): Promise<void> {
  for (const chunk of inChunks(spans)) {
    const months = chunk.map((s) => s.name);
    await tx.deleteFrom('dashboard_months').where('month', 'in', months).execute();
    await tx.deleteFrom('dashboard_month_sizes').where('month', 'in', months).execute();
    await insert('dashboard_months', ['month', ...ITEM_COLUMNS], monthItemsFromDays(months)).execute(tx);
    await insert('dashboard_month_sizes', ['month', ...SIZE_COLUMNS], monthSizesFromDays(months)).execute(tx);
  }
}

/** Every shop day (and month) from the first paid order's to the last's. */
export async function paidSpans(
  db: DbOrTx,
  zone: string,
): Promise<{ days: NamedSpan[]; months: NamedSpan[] }> {
  const bounds = await db
    .selectFrom('orders')
    .select((eb) => [eb.fn.min('paid_at').as('first'), eb.fn.max('paid_at').as('last')])
    .executeTakeFirst();
  const first = bounds?.first;
  const last = bounds?.last;
  if (!first || !last) return { days: [], months: [] };
  const days = daysFromTo(shopDayOf(first, zone), shopDayOf(last, zone));
  const months: string[] = [];
  const lastMonth = days.at(-1)?.slice(0, 7) ?? '';
  for (let m = days[0]?.slice(0, 7) ?? ''; m <= lastMonth; m = nextMonth(m)) months.push(m);
  return { days: daySpans(days, zone), months: monthSpans(months, zone) };
}

/** The summaries emptied and summed again from every paid order, in `zone`'s days. */
async function rebuild(tx: Transaction<Database>, zone: string): Promise<void> {
  await sql`DELETE FROM dashboard_dirty`.execute(tx);
  for (const table of SUMMARY_TABLES) await tx.deleteFrom(table).execute();
  const { days, months } = await paidSpans(tx, zone);
  await sumDays(tx, days);
  await sumMonths(tx, months);
  await tx.updateTable('dashboard_state').set({ zone }).where('id', '=', 1).execute();
  // PostgreSQL plans from statistics taken when the tables were empty until autovacuum gets round to them
  // (never, where it is off): a year's top lists went from 100 to 45 ms at 100,000 orders once analysed.
  if (engineOf(tx) === 'postgres') await sql`ANALYZE ${sql.raw(SUMMARY_TABLES.join(', '))}`.execute(tx);
}
