import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { databaseFile, openDatabase } from '../db/connect.js';
import type { Db } from '../db/database.js';
import { openPostgres } from '../db/postgres/connect-postgres.js';
import { createThrowawayDatabase } from './postgres.js';

/** An empty, unmigrated database of one engine for a test that walks both; close() removes it. */
export type ThrowawayStore = { db: Db; close(): Promise<void> };

/** A SQLite file in a temporary folder of its own (named after `prefix`). */
export function openThrowawaySqlite(prefix: string): ThrowawayStore {
  const dir = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
  const handle = openDatabase(databaseFile(dir));
  return {
    db: handle.db,
    async close() {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A pool of `poolSize` connections on a throwaway PostgreSQL database. */
export async function openThrowawayPostgres(poolSize: number): Promise<ThrowawayStore> {
  const database = await createThrowawayDatabase();
  const handle = openPostgres(database.url, poolSize);
  return {
    db: handle.db,
    async close() {
      await handle.close();
      await database.drop();
    },
  };
}
