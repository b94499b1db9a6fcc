import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  fixedClock,
  loginCookie,
  type TestStore,
} from '../../test-support/test-store.js';
import type { VitalSample } from './vitals.repository.js';
import { p75, summarizeVitals, trendOf, type VitalsSummary } from './vitals-summary.js';

describe('the web vitals endpoint and the performance summary', () => {
  let store: TestStore;
  let app: FastifyInstance;
  afterEach(async () => {
    await app.close();
    await store.cleanup();
  });

  const beacon = (body: string, type = 'text/plain;charset=UTF-8') =>
    app.inject({ method: 'POST', url: '/api/vitals', headers: { 'content-type': type }, payload: body });
  const report = (path: string, metrics: { name: string; value: number }[]) =>
    JSON.stringify({ path, metrics });

  it('stores beacons (text/plain or JSON) under the route pattern, never the URL', async () => {
    store = await createTestStore();
    app = await buildTestApp(store);
    const a = await beacon(
      report('/product/k1?utm_source=mail&email=x@y.z', [
        { name: 'LCP', value: 1800 },
        { name: 'CLS', value: 0.02 },
      ]),
    );
    expect(a.statusCode).toBe(204);
    expect(
      (await beacon(report('/no/such/page', [{ name: 'TTFB', value: 300 }]), 'application/json')).statusCode,
    ).toBe(204);
    const rows = await store.handle.db.selectFrom('web_vitals').selectAll().orderBy('id').execute();
    expect(rows.map((r) => [r.metric, r.value, r.route])).toEqual([
      ['LCP', 1800, '/product/:id'],
      ['CLS', 0.02, '/product/:id'],
      ['TTFB', 300, '(not found)'],
    ]);
    expect(JSON.stringify(rows)).not.toContain('utm');
  });

  it('refuses invalid, oversized and cross-site reports, and more than 30 a minute per IP', async () => {
    store = await createTestStore();
    app = await buildTestApp(store);
    expect((await beacon('not json')).statusCode).toBe(400);
    expect((await beacon(report('/', [{ name: 'FID', value: 3 }]))).statusCode).toBe(400);
    expect((await beacon(report('/', [{ name: 'LCP', value: -1 }]))).statusCode).toBe(400);
    expect((await beacon(report('/', []))).statusCode).toBe(400);
    expect((await beacon(JSON.stringify({ path: '/', metrics: [], pad: 'x'.repeat(9000) }))).statusCode).toBe(
      413,
    );
    expect((await beacon('{}', 'application/x-www-form-urlencoded')).statusCode).toBe(415);
    const crossSite = await app.inject({
      method: 'POST',
      url: '/api/vitals',
      headers: { 'content-type': 'text/plain', origin: 'https://evil.example' },
      payload: report('/', [{ name: 'LCP', value: 1 }]),
    });
    expect(crossSite.statusCode).toBe(403);
    // The 4 invalid reports above counted against the window (oversized, wrong type and cross-site ones never
    // reached the route).
    let accepted = 0;
    for (let i = 0; i < 30; i++) {
      if ((await beacon(report('/', [{ name: 'LCP', value: 1000 }]))).statusCode === 204) accepted++;
    }
    expect(accepted).toBe(26);
    expect((await beacon(report('/', [{ name: 'LCP', value: 1000 }]))).statusCode).toBe(429);
  });

  it('summarises per metric and route for admins: p75, average, best, worst, count, rating and trend', async () => {
    store = await createTestStore();
    await createAdmin(store, 'owner@shop.example', 'correct horse battery');
    app = await buildTestApp(store);
    const now = fixedClock.now().getTime();
    const day = 86_400_000;
    const rows = [];
    for (let i = 0; i < 8; i++) {
      rows.push({
        time: new Date(now - 1 * day - i * 1000).toISOString(),
        metric: 'LCP' as const,
        value: 1000 + i * 100,
        route: '/',
        navigation_type: null,
      });
      rows.push({
        time: new Date(now - 9 * day - i * 1000).toISOString(),
        metric: 'LCP' as const,
        value: 3000 + i * 100,
        route: '/',
        navigation_type: null,
      });
    }
    await store.handle.db.insertInto('web_vitals').values(rows).execute();
    const cookie = await loginCookie(app, 'owner@shop.example', 'correct horse battery');
    expect((await app.inject({ url: '/api/trpc/admin.performance.summary' })).statusCode).toBe(401);
    const res = await app.inject({ url: '/api/trpc/admin.performance.summary', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const summary = (res.json() as { result: { data: VitalsSummary } }).result.data;
    const home = summary.rows.find((r) => r.metric === 'LCP' && r.route === '/');
    expect(home).toEqual({
      metric: 'LCP',
      route: '/',
      samples: 8,
      p75: 1500,
      average: 1350,
      best: 1000,
      worst: 1700,
      rating: 'good',
      trend: 'improving',
    });
    expect(summary.rows.find((r) => r.metric === 'LCP' && r.route === null)?.samples).toBe(8);
    const lcpDays = summary.daily.find((d) => d.metric === 'LCP')?.days ?? [];
    expect(lcpDays).toHaveLength(14);
    expect(lcpDays.filter((d) => d.samples > 0).map((d) => d.samples)).toEqual([8, 8]);
  });
});

describe('vitals statistics', () => {
  it('takes the 75th percentile by rank and calls small changes stable', () => {
    expect(p75([4, 1, 3, 2])).toBe(3);
    expect(p75([5])).toBe(5);
    expect(trendOf([100, 100, 100, 100, 100], [100, 105, 100, 100, 100])).toBe('stable');
    expect(trendOf([200, 200, 200, 200, 200], [100, 100, 100, 100, 100])).toBe('degrading');
    expect(trendOf([100], [100, 100, 100, 100, 100])).toBeNull();
  });

  it('rates the p75 against the thresholds', () => {
    const now = new Date('2026-11-22T10:00:00.000Z');
    const s = (metric: VitalSample['metric'], value: number): VitalSample => ({
      metric,
      value,
      route: '/',
      time: now.toISOString(),
    });
    const summary = summarizeVitals([s('CLS', 0.3), s('INP', 300), s('TTFB', 100)], now, 7);
    const rating = Object.fromEntries(
      summary.rows.filter((r) => r.route === null).map((r) => [r.metric, r.rating]),
    );
    expect(rating).toEqual({ CLS: 'poor', INP: 'needs-improvement', TTFB: 'good' });
  });
});
