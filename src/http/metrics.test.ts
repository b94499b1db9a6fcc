import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { buildTestApp, createTestStore, type TestStore } from '../test-support/test-store.js';

const TOKEN = 'metrics-token-for-the-test-0123456789';

/** The event-loop delay a collector reads, behind its token; absent without one. */
describe('/metrics', () => {
  let store: TestStore;
  let app: FastifyInstance;
  afterEach(async () => {
    await app.close();
    await store.cleanup();
  });

  const withToken = async (token: string | undefined) => {
    store = await createTestStore();
    const { metricsToken } = loadConfig({ NODE_ENV: 'test', METRICS_TOKEN: token });
    app = await buildTestApp(store, { config: { ...store.config, metricsToken } });
  };
  const scrape = (authorization?: string) =>
    app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
  const value = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);

  it('does not exist without METRICS_TOKEN', async () => {
    await withToken(undefined);
    expect((await scrape(`Bearer ${TOKEN}`)).statusCode).toBe(404);
  });

  it('answers 401 to a missing or wrong token, with nothing about the process', async () => {
    await withToken(TOKEN);
    for (const auth of [undefined, 'Bearer nope', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const res = await scrape(auth);
      expect(res.statusCode).toBe(401);
      expect(res.body).not.toContain('store_');
    }
  });

  it('reports a stall of the server thread since the previous scrape, and starts afresh after each', async () => {
    await withToken(TOKEN);
    await scrape(`Bearer ${TOKEN}`);
    await new Promise((r) => setTimeout(r, 60));
    // 150 ms of synchronous work, as a slow synchronous query would be.
    const until = Date.now() + 150;
    while (Date.now() < until) {}
    await new Promise((r) => setTimeout(r, 60));
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.headers['cache-control']).toBe('no-store');
    const stalled = value(res.body, 'store_event_loop_delay_max_seconds');
    expect(stalled).toBeGreaterThanOrEqual(0.1);
    expect(value(res.body, 'store_event_loop_delay_seconds_count')).toBeGreaterThan(0);
    expect(value(res.body, 'process_resident_memory_bytes')).toBeGreaterThan(0);

    await new Promise((r) => setTimeout(r, 100));
    const next = await scrape(`Bearer ${TOKEN}`);
    expect(value(next.body, 'store_event_loop_delay_max_seconds')).toBeLessThan(stalled);
  });
});
