import { accessSync, constants, existsSync, statfsSync, statSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { type Config, ConfigError, loadConfig } from '../config.js';
import { databaseFile } from '../db/connect.js';
import { dataDirInUse } from './data-lock.js';
import { checkRedis } from './doctor-redis.js';
import {
  type CheckResult,
  checkAddresses,
  checkMail,
  checkSession,
  checkStripe,
  fail,
  ok,
  warn,
} from './doctor-settings.js';
import { checkStorage } from './doctor-storage.js';
import { count } from './plural.js';
import { checkPostgres } from './postgres/pg-doctor.js';
import { interruptedRestore, preRestoreCopies } from './restore.js';
import { listBackups } from './scheduled-backups.js';
import { appliedMigrations, compareSchema, integrityProblem } from './schema.js';

export type { CheckResult, Level } from './doctor-settings.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** The folder's results, and whether the checks that read inside it can run. */
function checkDataDir(config: Config, uid: number | null): { results: CheckResult[]; usable: boolean } {
  const dir = config.dataDir;
  const unusable = (result: CheckResult) => ({ results: [result], usable: false });
  let info: ReturnType<typeof statSync>;
  try {
    info = statSync(dir);
  } catch {
    return unusable(
      warn(
        'data-dir',
        `${dir} does not exist yet: the server creates it at first start (check DATA_DIR if the store has run before).`,
      ),
    );
  }
  if (!info.isDirectory())
    return unusable(
      fail('data-dir', `${dir} is not a folder. Fix: point DATA_DIR at the store's data folder.`),
    );
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch {
    return unusable(
      fail(
        'data-dir',
        `${dir} is not writable by this user. Fix: chown -R <store user> ${dir}, and run the store as that user.`,
      ),
    );
  }
  const results: CheckResult[] = [];
  const mode = info.mode & 0o777;
  if (mode & 0o007) {
    const text = `${dir} is readable by other users (mode ${mode.toString(8)}); it holds customer data. Fix: chmod 700 ${dir}.`;
    // Every folder made before this check existed is 755: a warning while developing, a failure in production.
    results.push(config.isProduction ? fail('data-dir', text) : warn('data-dir', text));
  } else results.push(ok('data-dir', `${dir} (mode ${mode.toString(8)}, writable)`));
  if (uid !== null && uid !== info.uid)
    results.push(
      warn(
        'user',
        `${dir} belongs to uid ${info.uid} but this runs as uid ${uid}. Fix: run the store and these commands as its owner (sudo -u <store user> …).`,
      ),
    );
  return { results, usable: true };
}

function checkDatabase(config: Config): CheckResult[] {
  const file = databaseFile(config.dataDir);
  if (!existsSync(file))
    return [warn('database', `no database at ${file} yet: the server creates it at first start.`)];
  let db: SQLite.Database | null = null;
  try {
    db = new SQLite(file, { readonly: true, fileMustExist: true, timeout: 5000 });
    const problem = integrityProblem(db);
    if (problem)
      return [
        fail(
          'database',
          `PRAGMA integrity_check: ${problem}. Fix: stop the store and restore the newest good backup (npm run restore -- <backup>).`,
        ),
      ];
    const applied = appliedMigrations(db);
    const { pending, unknown } = compareSchema(applied);
    if (unknown.length > 0)
      return [
        fail(
          'database',
          `the database has migrations this code does not know (${unknown.join(', ')}): it was used by a newer version. Fix: deploy that version again.`,
        ),
      ];
    if (pending.length > 0)
      return [
        warn(
          'database',
          `integrity ok; ${count(pending.length, 'migration')} will run at the next start (${pending.join(', ')}). Fix: take a backup first (npm run backup).`,
        ),
      ];
    return [ok('database', `integrity ok, schema current (${count(applied.length, 'migration')})`)];
  } catch (error) {
    return [
      fail(
        'database',
        `${file} cannot be read: ${error instanceof Error ? error.message : String(error)}. Fix: restore the newest good backup.`,
      ),
    ];
  } finally {
    db?.close();
  }
}

function checkDisk(config: Config): CheckResult {
  let target = config.dataDir;
  while (!existsSync(target) && path.dirname(target) !== target) target = path.dirname(target);
  const fs = statfsSync(target);
  const free = fs.bavail * fs.bsize;
  const share = fs.blocks > 0 ? fs.bavail / fs.blocks : 1;
  const shown = `${(free / GiB).toFixed(1)} GiB free (${Math.round(share * 100)}%) at ${target}`;
  if (free < 256 * MiB)
    return fail('disk', `${shown}: SQLite and uploads will start failing. Fix: free space or grow the disk.`);
  if (free < GiB || share < 0.1) return warn('disk', `${shown}. Fix: free space before backups fill it.`);
  return ok('disk', shown);
}

async function checkBackups(config: Config): Promise<CheckResult> {
  const { dir, intervalHours, keep } = config.backups;
  const newest = (await listBackups(dir))[0];
  const age = newest ? (Date.now() - Date.parse(newest.manifest.createdAt)) / 3600_000 : null;
  const last = newest && age !== null ? `newest ${newest.name}, ${age.toFixed(1)} h old` : 'none yet';
  if (intervalHours <= 0) {
    // Advice ("Fix: …") belongs to WARN and FAIL lines only; outside production no schedule is fine.
    return config.isProduction
      ? warn(
          'backups',
          `no scheduled backups (BACKUP_INTERVAL_HOURS=0); ${last}. Fix: BACKUP_INTERVAL_HOURS=24, or npm run backup from cron.`,
        )
      : ok('backups', `no scheduled backups (BACKUP_INTERVAL_HOURS=0, fine outside production); ${last}`);
  }
  if (existsSync(dir)) {
    try {
      accessSync(dir, constants.W_OK);
    } catch {
      return fail(
        'backups',
        `${dir} is not writable: scheduled backups fail. Fix: chown it to the store's user.`,
      );
    }
  }
  if (age === null || age > 2 * intervalHours)
    return warn(
      'backups',
      `every ${intervalHours} h into ${dir}, but ${last}. Fix: check the server log for "scheduled backup failed".`,
    );
  return ok('backups', `every ${intervalHours} h, keeping ${keep}, ${last}`);
}

async function checkRunState(config: Config): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  if (await interruptedRestore(config.dataDir))
    results.push(
      warn(
        'restore',
        'an interrupted restore is waiting: the next server start (or npm run restore) completes it.',
      ),
    );
  const copies = await preRestoreCopies(config.dataDir);
  if (copies.length > 0)
    results.push(
      warn(
        'restore',
        `${count(copies.length, 'pre-restore copy', 'pre-restore copies')} in ${config.dataDir} (${copies.join(', ')}). Fix: delete ${copies.length === 1 ? 'it' : 'them'} once the restored store is fine.`,
      ),
    );
  try {
    results.push(
      ok(
        'server',
        dataDirInUse(config.dataDir)
          ? 'a store process is running on this data folder'
          : 'no store process is running on this data folder',
      ),
    );
  } catch (error) {
    results.push(
      warn(
        'server',
        `cannot tell whether a server runs: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  }
  return results;
}

/**
 * Everything `npm run doctor` checks, one result a line. The configuration goes through the same Zod
 * parsing as the server; if it fails, nothing else can be judged.
 */
export async function runDoctor(
  env: NodeJS.ProcessEnv,
  opts: { uid?: number | null } = {},
): Promise<CheckResult[]> {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return [fail('config', error.message)];
    throw error;
  }
  const uid = opts.uid === undefined ? (process.getuid?.() ?? null) : opts.uid;
  const engine = config.database.kind === 'postgres' ? 'PostgreSQL' : 'SQLite';
  const results: CheckResult[] = [
    ok(
      'config',
      `environment is valid (NODE_ENV=${config.nodeEnv}, DATA_DIR=${config.dataDir}, database ${engine})`,
    ),
  ];
  const folder = checkDataDir(config, uid);
  results.push(...folder.results);
  // On PostgreSQL the data folder holds the files only; the database is the server's.
  if (config.database.kind === 'postgres')
    results.push(...(await checkPostgres(config, config.database.url)));
  else if (folder.usable) results.push(...checkDatabase(config));
  results.push(
    checkDisk(config),
    checkSession(config),
    ...checkStripe(config, env),
    ...checkMail(config),
    ...checkAddresses(config, env),
  );
  results.push(...(await checkStorage(config)));
  results.push(...(await checkRedis(config)));
  results.push(await checkBackups(config));
  if (folder.usable) results.push(...(await checkRunState(config)));
  return results;
}

export function formatResults(results: readonly CheckResult[]): string {
  return results.map((r) => `${r.level.padEnd(4)}  ${r.check.padEnd(10)}  ${r.message}`).join('\n');
}
