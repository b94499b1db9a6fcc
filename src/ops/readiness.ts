import { randomBytes } from 'node:crypto';
import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { engineOf } from '../db/engine-sql.js';
import { compareSchema } from './schema.js';

export type ReadinessCheck = 'database' | 'migrations' | 'dataDir';
export type Readiness = { ready: true } | { ready: false; check: ReadinessCheck; detail: string };

/**
 * Whether this process can serve orders: the database answers, every migration this build knows is applied
 * (another process may have restored an older file underneath), and the data folder takes a write. Each
 * failure names its check, so a monitor's alert says what to look at.
 */
export async function checkReadiness(deps: { db: Db; dataDir: string }): Promise<Readiness> {
  let applied: string[];
  const engine = engineOf(deps.db);
  try {
    const table =
      engine === 'postgres'
        ? await sql<{ n: number }>`SELECT count(*) AS n FROM information_schema.tables
            WHERE table_schema = current_schema() AND table_name = 'kysely_migration'`.execute(deps.db)
        : await sql<{ n: number }>`
            SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table' AND name = 'kysely_migration'`.execute(
            deps.db,
          );
    applied =
      Number(table.rows[0]?.n ?? 0) === 0
        ? []
        : (await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(deps.db)).rows.map(
            (r) => r.name,
          );
  } catch (error) {
    // Only the driver's error code goes out (the answer is public); the log line has the whole error.
    return { ready: false, check: 'database', detail: errorCode(error) };
  }
  const { pending, unknown } = compareSchema(applied, engine);
  if (pending.length > 0)
    return { ready: false, check: 'migrations', detail: `not applied: ${pending.join(', ')}` };
  if (unknown.length > 0)
    return { ready: false, check: 'migrations', detail: `unknown to this build: ${unknown.join(', ')}` };

  const probe = path.join(deps.dataDir, probeFileName());
  try {
    await writeFile(probe, 'ok', { flag: 'wx' });
  } catch (error) {
    return {
      ready: false,
      check: 'dataDir',
      detail: `not writable: ${errorCode(error)}`,
    };
  } finally {
    await rm(probe, { force: true });
  }
  return { ready: true };
}

/** A new write probe's name: `.readyz-<pid>-<8 hex>`, which nothing else in DATA_DIR looks like. */
export function probeFileName(): string {
  return `.readyz-${process.pid}-${randomBytes(4).toString('hex')}`;
}
const PROBE_FILE = /^\.readyz-\d+-[0-9a-f]{8}$/;

/**
 * Deletes write probes a killed process left in DATA_DIR (it died between writing and removing one), and
 * only those. A live process's probe deleted meanwhile costs nothing: it is removed with `force` anyway.
 */
export async function removeLeftoverProbes(dataDir: string): Promise<string[]> {
  const leftovers = (await readdir(dataDir)).filter((name) => PROBE_FILE.test(name));
  for (const name of leftovers) await rm(path.join(dataDir, name), { force: true });
  return leftovers;
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : 'unreachable';
}
