import { chmodSync, renameSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { LogService } from '../modules/logs/log-service.js';
import { knownMigrationNames } from '../ops/schema.js';
import { openTestRedisStore, testRedisPrefix } from '../test-support/redis.js';
import { buildTestApp, createTestStore, type TestStore } from '../test-support/test-store.js';

describe('/healthz and /readyz', () => {
  let store: TestStore;
  let app: FastifyInstance;
  let undo: (() => void) | null = null;
  afterEach(async () => {
    undo?.();
    undo = null;
    await app.close();
    await store.cleanup();
  });

  it('/healthz says the process is up, without asking the database; /readyz checks everything; never cached', async () => {
    store = await createTestStore();
    app = await buildTestApp(store);
    const health = await app.inject('/healthz');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    expect(health.headers['cache-control']).toBe('no-store');

    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok' });
    expect(ready.headers['cache-control']).toBe('no-store');
  });

  it('/readyz stays 200 with REDIS_URL and says whether Redis is up or down, for a monitor to alert on', async () => {
    const keys = testRedisPrefix('readyz');
    store = await createTestStore();
    const counters = await openTestRedisStore(keys.prefix);
    app = await buildTestApp(store, { counters });
    const up = await app.inject('/readyz');
    expect(up.statusCode).toBe(200);
    expect(up.json()).toEqual({ status: 'ok', redis: 'up' });
    // Redis goes away (the connection closed, as a stopped server looks to the client).
    await counters.close();
    const down = await app.inject('/readyz');
    expect(down.statusCode).toBe(200);
    expect(down.json()).toEqual({ status: 'ok', redis: 'down' });
    await keys.flush();
  });

  it('/readyz is 503 naming the migrations when one is missing, while /healthz stays 200', async () => {
    store = await createTestStore();
    app = await buildTestApp(store);
    const last = knownMigrationNames(store.engine).at(-1) ?? '';
    await store.handle.db
      .deleteFrom('kysely_migration' as never)
      .where('name' as never, '=', last as never)
      .execute();
    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'error', failed: 'migrations', detail: `not applied: ${last}` });
    expect(ready.headers['cache-control']).toBe('no-store');
    expect((await app.inject('/healthz')).statusCode).toBe(200);
  });

  it('/readyz is 503 naming the data folder when it cannot be written', async () => {
    store = await createTestStore();
    app = await buildTestApp(store);
    const dir = store.dir;
    if (process.getuid?.() === 0) {
      // root writes through any mode: take the folder away instead (the open database keeps working).
      renameSync(dir, `${dir}-away`);
      undo = () => renameSync(`${dir}-away`, dir);
    } else {
      chmodSync(dir, 0o555);
      undo = () => chmodSync(dir, 0o700);
    }
    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: 'error', failed: 'dataDir' });
    expect((ready.json() as { detail: string }).detail).toMatch(/^not writable: E[A-Z]+$/);
  });

  it('/readyz is 503 naming the database when it cannot be queried', async () => {
    store = await createTestStore();
    // The failed check is logged, and the application log cannot reach the closed database either: it
    // reports that to its onError (stderr in production), captured here so the run stays quiet.
    const logFailures: string[] = [];
    const logService = new LogService({
      db: store.handle.db,
      limits: store.config.logs,
      onError: (error) => logFailures.push(error instanceof Error ? error.message : String(error)),
    });
    app = await buildTestApp(store, { logService });
    await store.loseDatabase(); // as if the file or the database went away under the process

    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: 'error', failed: 'database' });
    expect((await app.inject('/healthz')).statusCode).toBe(200);
    await logService.flush();
    expect(logFailures).toEqual([
      expect.stringMatching(
        store.engine === 'postgres' ? /does not exist|terminat/ : /connection is not open/,
      ),
    ]);
  });
});
