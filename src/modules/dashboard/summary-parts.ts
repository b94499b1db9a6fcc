import { type RawBuilder, sql } from 'kysely';
import type { PeriodRange } from '../../shared/dashboard.js';
import { type DayRun, dayAfter, nextMonth, summaryPartsOf } from '../../shared/dashboard-period.js';

/** The run cut at month ends: each piece within one month. */
function byMonth(run: DayRun): { month: string; run: DayRun }[] {
  const pieces: { month: string; run: DayRun }[] = [];
  for (let first = run.first; first <= run.last; ) {
    const month = first.slice(0, 7);
    const monthEnd = dayAfter(`${nextMonth(month)}-01`, -1);
    const last = monthEnd < run.last ? monthEnd : run.last;
    pieces.push({ month, run: { first, last } });
    first = dayAfter(last, 1);
  }
  return pieces;
}

/**
 * The range's rows of a summary, as SELECTs to UNION ALL: its whole months from the month table, and its edge
 * days from the day table, except that a month the range covers in part is read from its month row when no
 * order was paid on its days outside the range (decision 0041 "Speed"): the month row is then exactly those
 * days. So "30 days", "this month" or a year to today read the current month's one row per key instead of
 * a row per key and day (100,000 orders: 15,000 rows for November's first 28 days). Which of the two is read
 * is the database's to decide, from dashboard_days, which has a row for every day with a paid order.
 */
export function summaryParts(
  range: PeriodRange,
  read: {
    days: (run: DayRun) => RawBuilder<unknown>;
    months: (first: string, last: string) => RawBuilder<unknown>;
  },
): RawBuilder<unknown>[] {
  const { months, days } = summaryPartsOf(range);
  const parts: RawBuilder<unknown>[] = [];
  for (const piece of days.flatMap(byMonth)) {
    const outside: DayRun[] = [];
    const monthStart = `${piece.month}-01`;
    const monthEnd = dayAfter(`${nextMonth(piece.month)}-01`, -1);
    if (piece.run.first > monthStart)
      outside.push({ first: monthStart, last: dayAfter(piece.run.first, -1) });
    if (piece.run.last < monthEnd) outside.push({ first: dayAfter(piece.run.last, 1), last: monthEnd });
    if (outside.length === 0) {
      parts.push(read.months(piece.month, piece.month));
      continue;
    }
    const paidOutside = sql`EXISTS (SELECT 1 FROM dashboard_days WHERE ${sql.join(
      outside.map((r) => sql`(day >= ${r.first} AND day <= ${r.last})`),
      sql` OR `,
    )})`;
    parts.push(sql`${read.days(piece.run)} AND ${paidOutside}`);
    parts.push(sql`${read.months(piece.month, piece.month)} AND NOT ${paidOutside}`);
  }
  if (months) parts.push(read.months(months.first, months.last));
  return parts;
}
