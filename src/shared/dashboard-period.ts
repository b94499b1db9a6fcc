import { type DashboardPeriodInput, MAX_PERIOD_DAYS, type PeriodRange } from './dashboard.js';
import { isTimeZone, localToUtc, utcToLocal } from './zoned-time.js';

/**
 * The overview's periods (issue 44, decision 0041): a preset or a custom range of the shop's days, turned
 * into the UTC instants the database compares paid_at with. Pure: the clock and the zone are passed in, so
 * the server and the tests (and the browser, if it wants to label a preset) get the same days.
 */

const DAY_MS = 86_400_000;
const CALENDAR_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A period the overview cannot draw: not a real day, or longer than MAX_PERIOD_DAYS. */
export class PeriodError extends Error {}

/** Days since 1970-01-01 of a real calendar date (no 31 February), or null. */
function dayNumber(date: string): number | null {
  const m = CALENDAR_DAY.exec(date);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return ms / DAY_MS;
}

function dateOf(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The day named `n` days after `day` (before it for a negative `n`): calendar arithmetic, no zone. */
export function dayAfter(day: string, n: number): string {
  const number = dayNumber(day);
  if (number === null) throw new PeriodError(`Not a real day: ${day}`);
  return dateOf(number + n);
}

/** The instant the shop's day starts (its first moment, a clock change at midnight included). */
function dayStart(date: string, zone: string): string {
  const iso = localToUtc(`${date}T00:00`, zone);
  if (!iso) throw new PeriodError(`Not a real day: ${date}`);
  return iso;
}

function rangeOf(first: number, last: number, zone: string): PeriodRange {
  const from = dateOf(first);
  const to = dateOf(last);
  return {
    from,
    to,
    startsAt: dayStart(from, zone),
    endsAt: dayStart(dateOf(last + 1), zone),
    days: last - first + 1,
  };
}

/**
 * The period and the one of the same number of days just before it. 'today' is the shop's today; '7d' and
 * '30d' end today and count it; 'month' runs from the 1st of this month to today. A custom range is taken
 * as given (both days included), refused when a day is not real or it spans more than MAX_PERIOD_DAYS.
 */
export function resolvePeriod(
  input: DashboardPeriodInput,
  now: Date,
  zone: string,
): { range: PeriodRange; previous: PeriodRange } {
  const safeZone = isTimeZone(zone) ? zone : 'UTC';
  const today = dayNumber(utcToLocal(now.toISOString(), safeZone).slice(0, 10));
  if (today === null) throw new PeriodError('The clock is not a real day');
  let first: number;
  let last = today;
  switch (input.preset ?? '7d') {
    case 'today':
      first = today;
      break;
    case '7d':
      first = today - 6;
      break;
    case '30d':
      first = today - 29;
      break;
    case 'month':
      first = today - (Number(dateOf(today).slice(8, 10)) - 1);
      break;
    case 'custom': {
      const from = input.from ? dayNumber(input.from) : null;
      const to = input.to ? dayNumber(input.to) : null;
      if (from === null || to === null) throw new PeriodError('Choose two real days');
      if (from > to) throw new PeriodError('The first day must not be after the last');
      if (to - from + 1 > MAX_PERIOD_DAYS)
        throw new PeriodError(`A period is at most ${MAX_PERIOD_DAYS} days`);
      first = from;
      last = to;
      break;
    }
  }
  const days = last - first + 1;
  return {
    range: rangeOf(first, last, safeZone),
    previous: rangeOf(first - days, first - 1, safeZone),
  };
}

/** A span of instants named by the shop day ('YYYY-MM-DD') or month ('YYYY-MM') it is: [startsAt, endsAt). */
export type NamedSpan = { name: string; startsAt: string; endsAt: string };

/** The shop day an instant falls on, in the zone (an unknown zone is UTC, as for the periods). */
export function shopDayOf(instant: string, zone: string): string {
  return utcToLocal(instant, isTimeZone(zone) ? zone : 'UTC').slice(0, 10);
}

/** The given shop days ('YYYY-MM-DD') and the instants each spans. */
export function daySpans(days: readonly string[], zone: string): NamedSpan[] {
  const safeZone = isTimeZone(zone) ? zone : 'UTC';
  return days.map((day) => {
    const n = dayNumber(day);
    if (n === null) throw new PeriodError(`Not a real day: ${day}`);
    return { name: day, startsAt: dayStart(day, safeZone), endsAt: dayStart(dateOf(n + 1), safeZone) };
  });
}

/** Every day from `first` to `last` ('YYYY-MM-DD', both included), in order. */
export function daysFromTo(first: string, last: string): string[] {
  const a = dayNumber(first);
  const b = dayNumber(last);
  if (a === null || b === null) throw new PeriodError('Not a real day');
  const out: string[] = [];
  for (let d = a; d <= b; d++) out.push(dateOf(d));
  return out;
}

/** The month after 'YYYY-MM'. */
export function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

/** The given shop months ('YYYY-MM') and the instants each spans, first day's start to the next month's. */
export function monthSpans(months: readonly string[], zone: string): NamedSpan[] {
  const safeZone = isTimeZone(zone) ? zone : 'UTC';
  return months.map((month) => ({
    name: month,
    startsAt: dayStart(`${month}-01`, safeZone),
    endsAt: dayStart(`${nextMonth(month)}-01`, safeZone),
  }));
}

/**
 * The whole shop months inside a range (first and last month, null when none) and the edge spans of the
 * range outside them: before the first whole month and after the last. Without a whole month the edge is
 * the whole range.
 */
export function wholeMonthsOf(
  range: PeriodRange,
  zone: string,
): { months: { first: string; last: string } | null; edges: { startsAt: string; endsAt: string }[] } {
  const firstWhole = range.from.endsWith('-01') ? range.from.slice(0, 7) : nextMonth(range.from.slice(0, 7));
  const to = dayNumber(range.to);
  if (to === null) throw new PeriodError('Not a real period');
  const lastWhole = dateOf(to + 1).endsWith('-01')
    ? range.to.slice(0, 7)
    : // The month before the one `to` is in.
      dateOf((dayNumber(`${range.to.slice(0, 7)}-01`) ?? to) - 1).slice(0, 7);
  if (firstWhole > lastWhole)
    return { months: null, edges: [{ startsAt: range.startsAt, endsAt: range.endsAt }] };
  const [first, last] = monthSpans([firstWhole, lastWhole], zone) as [NamedSpan, NamedSpan];
  const edges = [];
  if (range.startsAt < first.startsAt) edges.push({ startsAt: range.startsAt, endsAt: first.startsAt });
  if (last.endsAt < range.endsAt) edges.push({ startsAt: last.endsAt, endsAt: range.endsAt });
  return { months: { first: firstWhole, last: lastWhole }, edges };
}

/** A run of shop days by name, both included. */
export type DayRun = { first: string; last: string };

/**
 * The range as the summaries hold it: its whole shop months (null when none) and the runs of days before
 * the first and after the last (without a whole month: every day of it). Named days only, so no zone.
 */
export function summaryPartsOf(range: PeriodRange): {
  months: { first: string; last: string } | null;
  days: DayRun[];
} {
  const { months } = wholeMonthsOf(range, 'UTC');
  if (!months) return { months: null, days: [{ first: range.from, last: range.to }] };
  const days: DayRun[] = [];
  const firstDay = dayNumber(`${months.first}-01`);
  const afterLast = dayNumber(`${nextMonth(months.last)}-01`);
  if (firstDay === null || afterLast === null) throw new PeriodError('Not a real period');
  if (range.from < `${months.first}-01`) days.push({ first: range.from, last: dateOf(firstDay - 1) });
  if (dateOf(afterLast) <= range.to) days.push({ first: dateOf(afterLast), last: range.to });
  return { months, days };
}
