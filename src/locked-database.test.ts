import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DATABASE_BUSY_MESSAGE } from './core/failures.js';
import { databaseFile } from './db/connect.js';
import { insertProducts } from './test-support/fixtures.js';
import { buildTestApp, createTestStore, type TestStore, testEngine } from './test-support/test-store.js';

/** Another process holding the write lock (src/test-support/write-lock-holder.ts) until told to let go. */
type Holder = { release(): Promise<void>; child: ChildProcessWithoutNullStreams };

async function holdWriteLock(dataDir: string): Promise<Holder> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/test-support/write-lock-holder.ts', databaseFile(dataDir)],
    { stdio: 'pipe' },
  );
  let out = '';
  const said = (word: string) =>
    new Promise<void>((resolve, reject) => {
      const look = () => {
        if (!out.includes(word)) return;
        child.stdout.off('data', onData);
        resolve();
      };
      const onData = (chunk: Buffer) => {
        out += chunk.toString();
        look();
      };
      child.stdout.on('data', onData);
      child.once('exit', (code) =>
        reject(new Error(`lock holder exited (${code}) before "${word}": ${out}`)),
      );
      look();
    });
  await said('locked');
  return {
    child,
    async release() {
      const released = said('released');
      child.stdin.write('release\n');
      await released;
    },
  };
}

// SQLite's file lock held by another process; PostgreSQL's lock wait is in app-errors.hostile.test.ts.
describe.skipIf(testEngine === 'postgres')('a database whose write lock another process holds', () => {
  let store: TestStore;
  let app: FastifyInstance;
  let holder: Holder | null = null;

  beforeEach(async () => {
    store = await createTestStore();
    await insertProducts(store.handle.db, [{ id: 'p1', title: 'Mint Lawn Kurta', sizes: '["S","M","L"]' }]);
    app = await buildTestApp(store);
  });
  afterEach(async () => {
    holder?.child.kill('SIGKILL');
    holder = null;
    await app.close();
    await store.cleanup();
  });

  const createSession = () =>
    app.inject({
      method: 'POST',
      url: '/api/trpc/checkout.createSession',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ lines: [{ productId: 'p1', size: 'M', quantity: 1 }] }),
    });
  const orders = async () => (await store.handle.db.selectFrom('orders').select('id').execute()).length;

  it('a checkout waits for the lock and succeeds once it is released; meanwhile the store answers', async () => {
    holder = await holdWriteLock(store.dir);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    let settled = false;
    const checkout = createSession().finally(() => {
      settled = true;
    });
    try {
      // About a second of lock, during which the event loop must serve everyone else.
      await new Promise((r) => setTimeout(r, 1000));
      const health = await app.inject({ method: 'GET', url: '/healthz' });
      const read = await app.inject({
        method: 'GET',
        url: `/api/trpc/catalogue.byId?input=${encodeURIComponent(JSON.stringify({ id: 'p1' }))}`,
      });
      expect([health.statusCode, read.statusCode]).toEqual([200, 200]);
      expect(settled).toBe(false); // still waiting for the lock, neither failed at once nor done
      expect(ticks).toBeGreaterThan(0);
      expect(await orders()).toBe(0);
      await holder.release();
      const res = await checkout;
      expect(res.statusCode).toBe(200);
      expect(await orders()).toBe(1);
    } finally {
      clearInterval(ticker);
    }
  }, 60_000);

  it('a checkout held up longer than the lock budget answers 503 "busy, try again", after the budget', async () => {
    holder = await holdWriteLock(store.dir);
    store.handle.lockWait.ms = 500;
    const started = performance.now();
    const res = await createSession();
    expect(performance.now() - started).toBeGreaterThanOrEqual(495);
    expect(res.statusCode).toBe(503);
    expect((res.json() as { error: { message: string } }).error.message).toBe(DATABASE_BUSY_MESSAGE);
    expect(await orders()).toBe(0);
    await holder.release();
    expect((await createSession()).statusCode).toBe(200);
  }, 60_000);
});
