import { describe, expect, it } from 'vitest';
import { MAX_PERIOD_DAYS } from './dashboard.js';
import {
  daySpans,
  daysFromTo,
  PeriodError,
  resolvePeriod,
  summaryPartsOf,
  wholeMonthsOf,
} from './dashboard-period.js';

const periodDays = (range: { from: string; to: string }, zone: string) =>
  daySpans(daysFromTo(range.from, range.to), zone);

const at = (iso: string) => new Date(iso);

describe('resolvePeriod: presets into the shop’s days and their instants', () => {
  it('takes today as the shop’s today, not UTC’s (Karachi is UTC+5 all year)', () => {
    // 20:30 UTC on 28 November is 01:30 on 29 November in Karachi.
    const { range, previous } = resolvePeriod(
      { preset: 'today' },
      at('2026-11-28T20:30:00Z'),
      'Asia/Karachi',
    );
    expect(range).toEqual({
      from: '2026-11-29',
      to: '2026-11-29',
      startsAt: '2026-11-28T19:00:00.000Z',
      endsAt: '2026-11-29T19:00:00.000Z',
      days: 1,
    });
    expect(previous).toEqual({
      from: '2026-11-28',
      to: '2026-11-28',
      startsAt: '2026-11-27T19:00:00.000Z',
      endsAt: '2026-11-28T19:00:00.000Z',
      days: 1,
    });
  });

  it('counts today in 7 and 30 days, and compares with the same number of days just before', () => {
    const now = at('2026-11-29T12:00:00Z');
    const week = resolvePeriod({ preset: '7d' }, now, 'UTC');
    expect([week.range.from, week.range.to, week.range.days]).toEqual(['2026-11-23', '2026-11-29', 7]);
    expect([week.previous.from, week.previous.to, week.previous.days]).toEqual([
      '2026-11-16',
      '2026-11-22',
      7,
    ]);
    expect(week.previous.endsAt).toBe(week.range.startsAt);
    const month30 = resolvePeriod({ preset: '30d' }, now, 'UTC');
    expect([month30.range.from, month30.range.to, month30.range.days]).toEqual([
      '2026-10-31',
      '2026-11-29',
      30,
    ]);
    expect([month30.previous.from, month30.previous.to]).toEqual(['2026-10-01', '2026-10-30']);
  });

  it('defaults to 7 days', () => {
    expect(resolvePeriod({}, at('2026-11-29T12:00:00Z'), 'UTC').range.days).toBe(7);
  });

  it('runs this month from the 1st to today, the previous period being as many days before it', () => {
    const { range, previous } = resolvePeriod({ preset: 'month' }, at('2026-03-05T10:00:00Z'), 'UTC');
    expect([range.from, range.to, range.days]).toEqual(['2026-03-01', '2026-03-05', 5]);
    expect([previous.from, previous.to, previous.days]).toEqual(['2026-02-24', '2026-02-28', 5]);
    // On the 1st it is one day.
    const first = resolvePeriod({ preset: 'month' }, at('2026-12-01T00:00:00Z'), 'UTC').range;
    expect([first.from, first.to, first.days]).toEqual(['2026-12-01', '2026-12-01', 1]);
  });

  it('takes this month in the shop’s zone: 31 December 22:00 UTC is already January in Karachi', () => {
    const { range } = resolvePeriod({ preset: 'month' }, at('2026-12-31T22:00:00Z'), 'Asia/Karachi');
    expect([range.from, range.to, range.startsAt]).toEqual([
      '2027-01-01',
      '2027-01-01',
      '2026-12-31T19:00:00.000Z',
    ]);
  });

  it('gives London’s spring-forward day 23 hours and its autumn day 25', () => {
    const spring = resolvePeriod(
      { preset: 'custom', from: '2026-03-29', to: '2026-03-29' },
      at('2026-11-29T12:00:00Z'),
      'Europe/London',
    ).range;
    expect([spring.startsAt, spring.endsAt]).toEqual([
      '2026-03-29T00:00:00.000Z',
      '2026-03-29T23:00:00.000Z',
    ]);
    const autumn = resolvePeriod(
      { preset: 'custom', from: '2026-10-25', to: '2026-10-25' },
      at('2026-11-29T12:00:00Z'),
      'Europe/London',
    ).range;
    expect([autumn.startsAt, autumn.endsAt]).toEqual([
      '2026-10-24T23:00:00.000Z',
      '2026-10-26T00:00:00.000Z',
    ]);
  });

  it('lays out a period across a clock change day by day, each day starting where the last ended', () => {
    const { range } = resolvePeriod(
      { preset: 'custom', from: '2026-03-28', to: '2026-03-30' },
      at('2026-11-29T12:00:00Z'),
      'Europe/London',
    );
    expect(periodDays(range, 'Europe/London')).toEqual([
      { name: '2026-03-28', startsAt: '2026-03-28T00:00:00.000Z', endsAt: '2026-03-29T00:00:00.000Z' },
      { name: '2026-03-29', startsAt: '2026-03-29T00:00:00.000Z', endsAt: '2026-03-29T23:00:00.000Z' },
      { name: '2026-03-30', startsAt: '2026-03-29T23:00:00.000Z', endsAt: '2026-03-30T23:00:00.000Z' },
    ]);
  });

  it('lays out Karachi’s days at 19:00 UTC the evening before', () => {
    const { range } = resolvePeriod({ preset: '7d' }, at('2026-11-29T12:00:00Z'), 'Asia/Karachi');
    const days = periodDays(range, 'Asia/Karachi');
    expect(days).toHaveLength(7);
    expect(days[0]).toEqual({
      name: '2026-11-23',
      startsAt: '2026-11-22T19:00:00.000Z',
      endsAt: '2026-11-23T19:00:00.000Z',
    });
    expect(days.at(-1)?.endsAt).toBe(range.endsAt);
  });

  it('takes a custom range as given, both days included, and a leap year whole', () => {
    const { range, previous } = resolvePeriod(
      { preset: 'custom', from: '2028-01-01', to: '2028-12-31' },
      at('2029-01-10T00:00:00Z'),
      'UTC',
    );
    expect(range.days).toBe(MAX_PERIOD_DAYS);
    expect([previous.from, previous.to]).toEqual(['2026-12-31', '2027-12-31']);
  });

  it('refuses a custom range longer than MAX_PERIOD_DAYS, reversed, or of days that are none', () => {
    const now = at('2026-11-29T12:00:00Z');
    expect(() =>
      resolvePeriod({ preset: 'custom', from: '2025-01-01', to: '2026-01-02' }, now, 'UTC'),
    ).toThrow(PeriodError);
    expect(() =>
      resolvePeriod({ preset: 'custom', from: '2026-02-02', to: '2026-02-01' }, now, 'UTC'),
    ).toThrow(PeriodError);
    expect(() =>
      resolvePeriod({ preset: 'custom', from: '2026-02-31', to: '2026-03-01' }, now, 'UTC'),
    ).toThrow(PeriodError);
    expect(() => resolvePeriod({ preset: 'custom', from: '2026-02-01' }, now, 'UTC')).toThrow(PeriodError);
  });

  it('reads an unknown zone as UTC rather than failing', () => {
    expect(resolvePeriod({ preset: 'today' }, at('2026-11-29T23:30:00Z'), 'Mars/Olympus').range.from).toBe(
      '2026-11-29',
    );
  });
});

describe('wholeMonthsOf: the shop months inside a period and the days left at its edges', () => {
  it('splits a year into its whole months and the two edges, at Karachi’s midnights', () => {
    const { range } = resolvePeriod(
      { preset: 'custom', from: '2025-11-28', to: '2026-11-28' },
      at('2026-11-28T12:00:00Z'),
      'Asia/Karachi',
    );
    expect(wholeMonthsOf(range, 'Asia/Karachi')).toEqual({
      months: { first: '2025-12', last: '2026-10' },
      edges: [
        { startsAt: '2025-11-27T19:00:00.000Z', endsAt: '2025-11-30T19:00:00.000Z' },
        { startsAt: '2026-10-31T19:00:00.000Z', endsAt: '2026-11-28T19:00:00.000Z' },
      ],
    });
  });

  it('has no edge for a period of whole months, and no month for one without (2 January to 27 February)', () => {
    const whole = resolvePeriod(
      { preset: 'custom', from: '2026-03-01', to: '2026-06-30' },
      at('2026-11-01'),
      'UTC',
    );
    expect(wholeMonthsOf(whole.range, 'UTC')).toEqual({
      months: { first: '2026-03', last: '2026-06' },
      edges: [],
    });
    const none = resolvePeriod(
      { preset: 'custom', from: '2026-01-02', to: '2026-02-27' },
      at('2026-11-01'),
      'UTC',
    );
    expect(wholeMonthsOf(none.range, 'UTC')).toEqual({
      months: null,
      edges: [{ startsAt: none.range.startsAt, endsAt: none.range.endsAt }],
    });
    // A leap February whole: 29 February is its last day.
    const leap = resolvePeriod(
      { preset: 'custom', from: '2028-02-01', to: '2028-02-29' },
      at('2028-11-01'),
      'UTC',
    );
    expect(wholeMonthsOf(leap.range, 'UTC').months).toEqual({ first: '2028-02', last: '2028-02' });
  });
});

describe('summaryPartsOf: whole months and the runs of days at the edges, by name', () => {
  const custom = (from: string, to: string) =>
    resolvePeriod({ preset: 'custom', from, to }, at('2028-11-01'), 'Asia/Karachi').range;

  it('names the edge days before and after the whole months (a year from 28 November)', () => {
    expect(summaryPartsOf(custom('2025-11-28', '2026-11-28'))).toEqual({
      months: { first: '2025-12', last: '2026-10' },
      days: [
        { first: '2025-11-28', last: '2025-11-30' },
        { first: '2026-11-01', last: '2026-11-28' },
      ],
    });
  });

  it('has no runs for whole months, every day without one, and ends a leap February on the 29th', () => {
    expect(summaryPartsOf(custom('2026-03-01', '2026-06-30'))).toEqual({
      months: { first: '2026-03', last: '2026-06' },
      days: [],
    });
    expect(summaryPartsOf(custom('2026-01-02', '2026-02-27'))).toEqual({
      months: null,
      days: [{ first: '2026-01-02', last: '2026-02-27' }],
    });
    expect(summaryPartsOf(custom('2028-01-15', '2028-03-01'))).toEqual({
      months: { first: '2028-02', last: '2028-02' },
      days: [
        { first: '2028-01-15', last: '2028-01-31' },
        { first: '2028-03-01', last: '2028-03-01' },
      ],
    });
  });
});
