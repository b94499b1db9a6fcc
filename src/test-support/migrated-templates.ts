import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { appRoot } from '../app-root.js';
import { databaseFile, openDatabase } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { PRIVATE_FILE } from '../storage/private-files.js';

/**
 * Migrating a fresh database took most of a test's set-up (about half a second of the ~0.6 s of a small
 * test, more under CI's load, over ~1,600 tests an engine). A test gets a copy of a database migrated once
 * instead: on SQLite a file copy, on PostgreSQL a database of postgres-pool.ts. The store still runs its
 * migrator on the copy at open, which finds nothing to do, so the start-up path stays the one production
 * takes.
 */

/** Every migration's source, hashed: a template made from other migrations is never used. */
export function migrationsHash(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.[cm]?[jt]s$/.test(entry.name)) hash.update(entry.name).update(readFileSync(full));
    }
  };
  walk(path.join(appRoot, 'migrations'));
  return hash.digest('hex').slice(0, 16);
}

let sqliteTemplate: Promise<string> | null = null;

/** A migrated SQLite file for this test process, made on first use. */
function migratedSqliteFile(): Promise<string> {
  sqliteTemplate ??= (async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'store-template-'));
    const file = databaseFile(dir);
    const handle = openDatabase(file);
    try {
      await migrateToLatest(handle.db);
    } finally {
      // Closing the last connection checkpoints the WAL into the file and removes it: one file to copy.
      await handle.close();
    }
    return file;
  })();
  return sqliteTemplate;
}

/** Puts a migrated SQLite database at `file` (which must not exist yet), keeping the file's private mode. */
export async function copyMigratedSqlite(file: string): Promise<void> {
  const template = await migratedSqliteFile();
  copyFileSync(template, file);
  chmodSync(file, PRIVATE_FILE);
}
