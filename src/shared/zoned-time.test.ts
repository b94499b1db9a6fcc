import { describe, expect, it } from 'vitest';
import { isLocalDateTime, isTimeZone, localToUtc, utcToLocal } from './zoned-time.js';

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
});
