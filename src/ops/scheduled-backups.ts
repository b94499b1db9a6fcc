import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { keepLease, thisProcess, whileHoldingLease } from '../db/job-lease.js';
import type { FileStorage } from '../storage/file-storage.js';
import { BACKUP_NAME, type BackupResult, type BackupSource, createBackup } from './backup.js';
import { exists } from './files.js';
import { type Manifest, readManifest } from './manifest.js';
import type { PgTools } from './postgres/pg-tools.js';

export type BackupEntry = { name: string; dir: string; manifest: Manifest };

/** Finished backups under `root` (a folder with a readable manifest), newest first. */
export async function listBackups(root: string): Promise<BackupEntry[]> {
  if (!(await exists(root))) return [];
  const entries: BackupEntry[] = [];
  for (const name of await readdir(root)) {
    if (!BACKUP_NAME.test(name)) continue;
    const dir = path.join(root, name);
    try {
      entries.push({ name, dir, manifest: await readManifest(dir) });
    } catch {
      // not ours, or damaged: never counted, never deleted
    }
  }
  return entries.sort(
    (a, b) => b.manifest.createdAt.localeCompare(a.manifest.createdAt) || b.name.localeCompare(a.name),
  );
}

const STALE_PARTIAL_MS = 24 * 3600_000;

/**
 * Keeps the newest `keep` scheduled backups and deletes older scheduled ones; manual backups (npm run backup)
 * are the operator's and stay. Also clears `.partial-…` folders a crashed backup left over a day ago.
 */
export async function pruneBackups(root: string, keep: number, now: Date = new Date()): Promise<string[]> {
  const removed: string[] = [];
  const scheduled = (await listBackups(root)).filter((b) => b.manifest.kind === 'scheduled');
  for (const old of scheduled.slice(keep)) {
    await rm(old.dir, { recursive: true, force: true });
    removed.push(old.name);
  }
  if (await exists(root)) {
    for (const name of await readdir(root)) {
      if (!name.startsWith('.partial-')) continue;
      const dir = path.join(root, name);
      if (now.getTime() - (await stat(dir)).mtimeMs > STALE_PARTIAL_MS) {
        await rm(dir, { recursive: true, force: true });
        removed.push(name);
      }
    }
  }
  return removed;
}

type BackupSettings = Config['backups'];
type Log = { info(obj: object, msg: string): void; error(obj: object, msg: string): void };

/** What a backup copies: the database (SQLite in DATA_DIR by default) and the file storage (DATA_DIR's folders by default). */
type Source = { database?: BackupSource; tools?: PgTools; storage?: FileStorage };

/** One scheduled run: a backup, then retention. */
export async function runScheduledBackup(
  opts: { dataDir: string; settings: BackupSettings; now?: Date } & Source,
): Promise<{ backup: BackupResult; pruned: string[] }> {
  const backup = await createBackup({
    dataDir: opts.dataDir,
    backupRoot: opts.settings.dir,
    kind: 'scheduled',
    now: opts.now,
    database: opts.database,
    tools: opts.tools,
    storage: opts.storage,
  });
  const pruned = await pruneBackups(opts.settings.dir, opts.settings.keep, opts.now);
  return { backup, pruned };
}

export const BACKUP_LEASE = 'scheduled-backup';

/**
 * One scheduled run on the process holding the schedule's lease (db/job-lease.ts); null, with nothing done,
 * when another process sharing the database holds it. Several store processes on one PostgreSQL database
 * would otherwise each dump the same database at the same time. The lease is renewed while the backup runs
 * (a dump can take longer than the lease's minute) and kept by startScheduledBackups between runs.
 */
export async function runLeasedBackup(
  opts: { db: Db; holder: string; dataDir: string; settings: BackupSettings; now?: Date } & Source,
): Promise<{ backup: BackupResult; pruned: string[] } | null> {
  let result: { backup: BackupResult; pruned: string[] } | null = null;
  await whileHoldingLease(opts.db, { name: BACKUP_LEASE, holder: opts.holder }, async () => {
    result = await runScheduledBackup(opts);
  });
  return result;
}

/** How long until the next scheduled backup: one interval after the newest, at least `minDelayMs` from now. */
export async function nextBackupDelay(
  settings: BackupSettings,
  now: Date,
  minDelayMs: number,
): Promise<number> {
  const intervalMs = settings.intervalHours * 3600_000;
  const newest = (await listBackups(settings.dir)).find((b) => b.manifest.kind === 'scheduled');
  const dueAt = newest ? Date.parse(newest.manifest.createdAt) + intervalMs : now.getTime();
  return Math.max(minDelayMs, dueAt - now.getTime());
}

/**
 * The server's backup schedule (BACKUP_INTERVAL_HOURS > 0): in the background on an unref'd timer, never in a
 * request, on one process at a time (runLeasedBackup). The first run is due one interval after the newest
 * scheduled backup, so restarts do not pile up backups; a failed run is logged and tried again after the next
 * interval. stop() waits for a running one and gives the lease up.
 */
export function startScheduledBackups(
  opts: {
    dataDir: string;
    settings: BackupSettings;
    log: Log;
    /** The store's database, where the schedule's lease lives. */
    db: Db;
    /** This process as a lease holder; tests play several processes. */
    holder?: string;
    /** A start-up grace period before an overdue backup runs. */
    minDelayMs?: number;
  } & Source,
): { stop(): Promise<void> } {
  if (opts.settings.intervalHours <= 0) return { stop: async () => {} };
  const intervalMs = opts.settings.intervalHours * 3600_000;
  const holder = opts.holder ?? thisProcess;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  // Kept between runs, so one process makes the backups while it lives; another that takes it over (the
  // holder died without giving it up) looks at once whether a backup is due instead of an interval later.
  const lease = keepLease(opts.db, {
    name: BACKUP_LEASE,
    holder,
    onTaken: () => {
      if (running || stopped) return;
      if (timer) clearTimeout(timer);
      void nextBackupDelay(opts.settings, new Date(), opts.minDelayMs ?? 60_000)
        .catch(() => intervalMs)
        .then(schedule);
    },
  }).start();

  const schedule = (ms: number) => {
    if (stopped) return;
    // setTimeout's limit is about 24.8 days; longer intervals wake up early and re-check.
    timer = setTimeout(run, Math.min(ms, 2 ** 31 - 1));
    timer.unref();
  };
  const run = () => {
    running = (async () => {
      const started = Date.now();
      try {
        const made = await runLeasedBackup({ ...opts, holder });
        if (!made) return; // another process makes the backups
        const { backup, pruned } = made;
        opts.log.info(
          {
            event: 'backup.scheduled',
            dir: backup.dir,
            bytes: backup.bytes,
            ms: Date.now() - started,
            pruned,
          },
          `scheduled backup written to ${backup.dir}`,
        );
      } catch (error) {
        opts.log.error({ event: 'backup.scheduled.failed', err: error }, 'scheduled backup failed');
      }
    })();
    void running.finally(async () => {
      running = null;
      if (stopped) return;
      schedule(await nextBackupDelay(opts.settings, new Date(), intervalMs).catch(() => intervalMs));
    });
  };

  void nextBackupDelay(opts.settings, new Date(), opts.minDelayMs ?? 60_000)
    .catch(() => intervalMs)
    .then(schedule);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      // Another process may take the schedule over at once instead of waiting for the lease to run out.
      await lease.stop({ release: true });
    },
  };
}
