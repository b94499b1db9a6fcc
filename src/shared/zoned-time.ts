/**
 * Wall-clock times in the shop's time zone (settings.timeZone, an IANA name) and the UTC instants they
 * are stored as (decision 0037). The owner types "2026-12-01T00:00" meaning midnight where the shop is;
 * the server keeps the instant. Intl only, so the browser and the server agree without a time-zone library.
 */

/** A local date-time as a datetime-local control gives it: YYYY-MM-DDTHH:mm. */
export const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** Zones Intl has accepted (it knows the same zones for the process's life). */
const knownZones = new Set<string>();

/** Whether Intl knows the zone (an IANA name such as Asia/Karachi, or UTC). */
export function isTimeZone(zone: string): boolean {
  if (zone.length === 0 || zone.length > 64) return false;
  // Building a formatter costs ~0.2 ms, and a year of the dashboard's days asks for hundreds.
  if (knownZones.has(zone)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    knownZones.add(zone);
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The wall-clock fields of an instant in a zone, as if they were UTC (milliseconds). */
function wallClockAsUtc(ms: number, zone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatterFor(zone).formatToParts(new Date(ms))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
}

/** Whether the text is a real local date-time (no 31 February). */
export function isLocalDateTime(text: string): boolean {
  const m = LOCAL_DATE_TIME.exec(text);
  if (!m) return false;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  const ms = Date.UTC(y, mo - 1, d, h, mi);
  const back = new Date(ms);
  return (
    y >= 2000 &&
    y <= 2200 &&
    back.getUTCFullYear() === y &&
    back.getUTCMonth() === mo - 1 &&
    back.getUTCDate() === d &&
    h < 24 &&
    mi < 60
  );
}

/**
 * The UTC instant (ISO) of a local date-time in a zone, or null for text that is none. A time skipped by
 * a clock change (02:30 on a spring-forward night) is taken as the same time on the offset before it, so
 * it lands just after the change, as calendars do.
 */
export function localToUtc(local: string, zone: string): string | null {
  if (!isLocalDateTime(local) || !isTimeZone(zone)) return null;
  const asUtc = Date.parse(`${local}:00.000Z`);
  // Two passes find the offset in force at the instant itself (one for the guess, one to correct it).
  let guess = asUtc - (wallClockAsUtc(asUtc, zone) - asUtc);
  guess = asUtc - (wallClockAsUtc(guess, zone) - guess);
  return new Date(guess).toISOString();
}

/** The local date-time (YYYY-MM-DDTHH:mm) of a UTC instant in a zone, as the form shows it. */
export function utcToLocal(iso: string, zone: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  const safeZone = isTimeZone(zone) ? zone : 'UTC';
  return new Date(wallClockAsUtc(ms, safeZone)).toISOString().slice(0, 16);
}

/**
 * The last day, in the zone, of something that stops at `endsAt` (an end that is itself no longer part of
 * it, as a sale's is): the local date (YYYY-MM-DD) of the last moment before the end. This is what
 * schema.org's priceValidUntil means ("the date after which the price is no longer available", an ISO 8601
 * Date, which Google reads as the last day the price holds) for shoppers where the shop is: a sale ending
 * 2026-12-01 00:30 in Karachi (2026-11-30T19:30Z) still holds on 1 December there, while one ending at
 * Karachi's midnight starting 1 December holds until 30 November.
 */
export function lastLocalDay(endsAt: string, zone: string): string {
  const ms = Date.parse(endsAt);
  if (Number.isNaN(ms)) return '';
  const safeZone = isTimeZone(zone) ? zone : 'UTC';
  return new Date(wallClockAsUtc(ms - 1, safeZone)).toISOString().slice(0, 10);
}
