import { describe, expect, it } from 'vitest';
import { isLocalDateTime, isTimeZone, lastLocalDay, localToUtc, utcToLocal } from './zoned-time.js';

describe('wall-clock times in the shop’s zone', () => {
  it('knows IANA zones and refuses anything else', () => {
    expect(isTimeZone('Asia/Karachi')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });

  it('turns midnight in Karachi, London and New York into their instants, and back', () => {
    expect(localToUtc('2026-11-23T00:00', 'Asia/Karachi')).toBe('2026-11-22T19:00:00.000Z');
    expect(localToUtc('2026-07-01T00:00', 'Europe/London')).toBe('2026-06-30T23:00:00.000Z');
    expect(localToUtc('2026-12-01T00:00', 'America/New_York')).toBe('2026-12-01T05:00:00.000Z');
    expect(localToUtc('2026-12-01T00:00', 'UTC')).toBe('2026-12-01T00:00:00.000Z');
    expect(utcToLocal('2026-11-22T19:00:00.000Z', 'Asia/Karachi')).toBe('2026-11-23T00:00');
    expect(utcToLocal('2026-06-30T23:00:00.000Z', 'Europe/London')).toBe('2026-07-01T00:00');
  });

  it('takes a time skipped by a clock change as just after it', () => {
    // 2026-03-29 01:30 does not exist in London (01:00 → 02:00).
    expect(localToUtc('2026-03-29T01:30', 'Europe/London')).toBe('2026-03-29T01:30:00.000Z');
  });

  it('refuses dates that are none', () => {
    expect(isLocalDateTime('2026-02-31T00:00')).toBe(false);
    expect(isLocalDateTime('2026-11-23 00:00')).toBe(false);
    expect(localToUtc('tomorrow', 'UTC')).toBeNull();
    expect(localToUtc('2026-11-23T00:00', 'Nowhere/Else')).toBeNull();
  });

  it('names the last local day of something that ends at an instant (a sale’s priceValidUntil)', () => {
    // 00:30 on 1 December in Karachi (UTC+5) is 19:30 on 30 November in UTC: the shopper there still has 1 December.
    expect(lastLocalDay('2026-11-30T19:30:00.000Z', 'Asia/Karachi')).toBe('2026-12-01');
    expect(lastLocalDay('2026-11-30T19:30:00.000Z', 'UTC')).toBe('2026-11-30');
    // An end at local midnight is not part of the new day: valid until the day before.
    expect(lastLocalDay(localToUtc('2026-12-01T00:00', 'Asia/Karachi') ?? '', 'Asia/Karachi')).toBe(
      '2026-11-30',
    );
    expect(lastLocalDay('2026-12-01T00:00:00.000Z', 'UTC')).toBe('2026-11-30');
    // London in summer is UTC+1: its midnight starting 1 July is 23:00 UTC the day before.
    expect(lastLocalDay('2026-06-30T23:00:00.000Z', 'Europe/London')).toBe('2026-06-30');
    expect(lastLocalDay('2026-06-30T23:30:00.000Z', 'Europe/London')).toBe('2026-07-01');
    // In winter it is UTC itself.
    expect(lastLocalDay('2026-12-01T00:00:00.000Z', 'Europe/London')).toBe('2026-11-30');
    expect(lastLocalDay('2026-12-01T00:30:00.000Z', 'Europe/London')).toBe('2026-12-01');
    // Across the clock changes: midnight after the spring-forward and after the fall-back days.
    expect(lastLocalDay(localToUtc('2026-03-30T00:00', 'Europe/London') ?? '', 'Europe/London')).toBe(
      '2026-03-29',
    );
    expect(lastLocalDay(localToUtc('2026-10-26T00:00', 'Europe/London') ?? '', 'Europe/London')).toBe(
      '2026-10-25',
    );
    // West of UTC: New York's 20:00 on 30 November is 01:00 UTC on 1 December.
    expect(lastLocalDay('2026-12-01T01:00:00.000Z', 'America/New_York')).toBe('2026-11-30');
    // A zone the settings no longer know counts in UTC, as the admin form does.
    expect(lastLocalDay('2026-11-30T19:30:00.000Z', 'Nowhere/Else')).toBe('2026-11-30');
  });
});
