import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { buildApp } from '../app.js';
import { demoDir } from '../app-root.js';
import { type Config, loadConfig } from '../config.js';
import { type DatabaseHandle, databaseFile, openDatabase } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { loadDemoCatalogueIfEmpty } from '../modules/demo/demo-loader.js';
import { LocalFileStorage } from '../storage/local-file-storage.js';
import type { Clock, InnerContext } from '../trpc/context.js';
import { createCallerFactory } from '../trpc/init.js';
import { appRouter } from '../trpc/router.js';

const createCaller = createCallerFactory(appRouter);

export const fixedClock: Clock = { now: () => new Date('2026-11-22T10:00:00.000Z') };

export type TestStore = {
  dir: string;
  config: Config;
  handle: DatabaseHandle;
  storage: LocalFileStorage;
  context(overrides?: Partial<InnerContext>): InnerContext;
  caller(overrides?: Partial<InnerContext>): ReturnType<typeof createCaller>;
  cleanup(): Promise<void>;
};

/** A real, migrated SQLite file in its own temporary data folder; optionally with the demo catalogue. */
export async function createTestStore(
  opts: { demo?: boolean; env?: Record<string, string> } = {},
): Promise<TestStore> {
  const dir = mkdtempSync(path.join(tmpdir(), 'store-test-'));
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, LOG_LEVEL: 'silent', ...opts.env });
  const handle = openDatabase(databaseFile(dir));
  await migrateToLatest(handle.db);
  const storage = new LocalFileStorage(dir);
  if (opts.demo) await loadDemoCatalogueIfEmpty({ db: handle.db, storage, demoDir, clock: fixedClock });
  const context = (overrides: Partial<InnerContext> = {}): InnerContext => ({
    db: handle.db,
    config,
    clock: fixedClock,
    storage,
    log: pino({ level: 'silent' }),
    admin: null,
    requestId: 'test-request',
    ...overrides,
  });
  return {
    dir,
    config,
    handle,
    storage,
    context,
    caller: (overrides) => createCaller(context(overrides)),
    async cleanup() {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function buildTestApp(store: TestStore, opts: { clientDir?: string | null } = {}) {
  return buildApp({
    config: store.config,
    db: store.handle.db,
    storage: store.storage,
    clock: fixedClock,
    clientDir: opts.clientDir ?? null,
    logger: false,
  });
}
