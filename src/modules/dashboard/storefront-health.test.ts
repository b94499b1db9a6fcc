import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VitalName } from '../../shared/web-vitals.js';
import { ownerSession as owner } from '../../test-support/orders.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';

/**
 * admin.dashboard.health on samples counted by hand, in Asia/Karachi: 1–28 November there is
 * [2026-10-31T19:00Z, 2026-11-28T19:00Z). p75 by nearest rank: the value at rank ⌈0.75·n⌉ of the sorted
 * samples, always a measured one (an interpolating percentile would give LCP 625, not 600).
 */
const ZONE = 'Asia/Karachi';
const NOVEMBER = { preset: 'custom' as const, from: '2026-11-01', to: '2026-11-28' };
const START = '2026-10-31T19:00:00.000Z';
const END = '2026-11-28T19:00:00.000Z';
const INSIDE = '2026-11-15T10:00:00.000Z';
const clock = { now: () => new Date('2026-11-29T10:00:00.000Z') };

describe('admin.dashboard.health', () => {
  let store: TestStore;
  const staff = { ...owner, id: 2, role: 'staff' as const };

  beforeAll(async () => {
    store = await createTestStore();
    const db = store.handle.db;
    await db.updateTable('settings').set({ time_zone: ZONE }).where('id', '=', 1).execute();
    const samples: Array<[VitalName, number, string]> = [
      // LCP: 8 in the period, sorted 100…800, rank ⌈6⌉ = 6: 600. Two far larger just outside it.
      ...[500, 100, 400, 300, 800, 200, 700, 600].map((v): [VitalName, number, string] => ['LCP', v, INSIDE]),
      ['LCP', 99_999, '2026-10-31T18:59:59.999Z'],
      ['LCP', 99_999, END],
      // INP: 5 (the first at the period's first instant), rank ⌈3.75⌉ = 4: 40.
      ['INP', 10, START],
      ...[50, 30, 20].map((v): [VitalName, number, string] => ['INP', v, INSIDE]),
      ['INP', 40, '2026-11-28T18:59:59.999Z'],
      // CLS: one sample is its own p75.
      ['CLS', 0.05, INSIDE],
      // FCP: ties, 5 5 9 9, rank 3: 9.
      ...[9, 5, 9, 5].map((v): [VitalName, number, string] => ['FCP', v, INSIDE]),
      // TTFB: none in the period.
      ['TTFB', 300, '2026-12-01T00:00:00.000Z'],
    ];
    await db
      .insertInto('web_vitals')
      .values(
        samples.map(([metric, value, time]) => ({ metric, value, time, route: '/', navigation_type: null })),
      )
      .execute();
    const logs: Array<['info' | 'warning' | 'error', number, string]> = [
      ['error', 3, INSIDE],
      ['error', 1, START],
      ['warning', 10, INSIDE],
      ['info', 4, INSIDE],
      ['error', 5, END],
      ['error', 7, '2026-10-31T18:59:59.999Z'],
    ];
    await db
      .insertInto('logs')
      .values(
        logs.map(([level, repeat_count, time], i) => ({
          level,
          repeat_count,
          time,
          last_time: time,
          source: 'server',
          message: `entry ${i}`,
          request_id: null,
        })),
      )
      .execute();
  });
  afterAll(async () => store.cleanup());

  it('answers p75 per vital by nearest rank and the errors with their repeats', async () => {
    const health = await store.caller({ admin: owner, clock }).admin.dashboard.health(NOVEMBER);
    expect(health).toEqual({
      range: { from: '2026-11-01', to: '2026-11-28', startsAt: START, endsAt: END, days: 28 },
      vitals: [
        { metric: 'LCP', p75: 600, samples: 8 },
        { metric: 'INP', p75: 40, samples: 5 },
        { metric: 'CLS', p75: 0.05, samples: 1 },
        { metric: 'FCP', p75: 9, samples: 4 },
        { metric: 'TTFB', p75: null, samples: 0 },
      ],
      // 3 + 1: not the warning's 10, nor the errors before and after.
      errors: 4,
    });
  });

  it('takes rank ⌈0.75·n⌉ for every n from 1 to 12', async () => {
    const db = store.handle.db;
    for (let n = 1; n <= 12; n++) {
      await db.deleteFrom('web_vitals').where('metric', '=', 'TTFB').execute();
      await db
        .insertInto('web_vitals')
        // Values n…1 backwards, so the order written is not the order sorted.
        .values(
          Array.from({ length: n }, (_, i) => ({
            metric: 'TTFB' as const,
            value: (n - i) * 10,
            time: INSIDE,
            route: '/',
            navigation_type: null,
          })),
        )
        .execute();
      const health = await store.caller({ admin: owner, clock }).admin.dashboard.health(NOVEMBER);
      expect(
        health.vitals.find((v) => v.metric === 'TTFB'),
        `n = ${n}`,
      ).toEqual({
        metric: 'TTFB',
        p75: Math.ceil(0.75 * n) * 10,
        samples: n,
      });
    }
  });

  it('answers nulls and no errors for a period without any', async () => {
    const health = await store
      .caller({ admin: owner, clock })
      .admin.dashboard.health({ preset: 'custom', from: '2026-06-01', to: '2026-06-30' });
    expect(health.vitals.every((v) => v.p75 === null && v.samples === 0)).toBe(true);
    expect(health.errors).toBe(0);
  });

  it('is refused to staff: the log is the owner’s', async () => {
    await expect(
      store.caller({ admin: staff, clock }).admin.dashboard.health(NOVEMBER),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('refuses a period it cannot draw', async () => {
    const caller = store.caller({ admin: owner, clock });
    for (const bad of [
      { preset: 'custom' as const },
      { preset: 'custom' as const, from: '2026-02-30', to: '2026-03-01' },
      { preset: 'custom' as const, from: '2025-01-01', to: '2026-11-28' },
      { preset: 'week' as never },
    ]) {
      await expect(caller.admin.dashboard.health(bad), JSON.stringify(bad)).rejects.toMatchObject({
        code: 'BAD_REQUEST',
      });
    }
  });
});
