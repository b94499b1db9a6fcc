import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Config, loadConfig } from '../config.js';
import type { Db } from '../db/database.js';
import { openPostgresStore, type StoreDatabase } from '../db/store-database.js';
import { LocalFileStorage } from '../storage/local-file-storage.js';
import { createThrowawayDatabase, type ThrowawayDatabase } from './postgres.js';

/**
 * A PostgreSQL store as the operations commands see it: a throwaway database, a data folder for the files,
 * the configuration a store with DATABASE_URL has, and a store process's connections (openPostgresStore,
 * named `storefront`) that the test stops and starts like the store's service.
 */
export type PostgresOpsStore = {
  dir: string;
  url: string;
  config: Config;
  storage: LocalFileStorage;
  /** The running store's database; throws while stopped. */
  readonly db: Db;
  stop(): Promise<void>;
  start(): Promise<Db>;
  cleanup(): Promise<void>;
};

export const TEST_SESSION_SECRET = 's'.repeat(48);

export async function createPostgresOpsStore(): Promise<PostgresOpsStore> {
  const dir = mkdtempSync(path.join(tmpdir(), 'store-pg-ops-'));
  let database: ThrowawayDatabase | null = null;
  try {
    database = await createThrowawayDatabase();
    const url = database.url;
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dir,
      DATABASE_URL: url,
      SESSION_SECRET: TEST_SESSION_SECRET,
      LOG_LEVEL: 'silent',
    });
    let running: StoreDatabase | null = await openPostgresStore(url, 2);
    const drop = database.drop;
    return {
      dir,
      url,
      config,
      storage: new LocalFileStorage(dir),
      get db() {
        if (!running) throw new Error('the store is stopped');
        return running.db;
      },
      async stop() {
        await running?.close();
        running = null;
      },
      async start() {
        running ??= await openPostgresStore(url, 2);
        return running.db;
      },
      async cleanup() {
        await running?.close();
        running = null;
        await drop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
