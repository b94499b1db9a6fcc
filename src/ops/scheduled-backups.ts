import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import { BACKUP_NAME, type BackupResult, createBackup } from './backup.js';
import { exists } from './files.js';
import { type Manifest, readManifest } from './manifest.js';

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

/** One scheduled run: a backup, then retention. */
export async function runScheduledBackup(opts: {
  dataDir: string;
  settings: BackupSettings;
  now?: Date;
}): Promise<{ backup: BackupResult; pruned: string[] }> {
  const backup = await createBackup({
    dataDir: opts.dataDir,
    backupRoot: opts.settings.dir,
    kind: 'scheduled',
    now: opts.now,
  });
  const pruned = await pruneBackups(opts.settings.dir, opts.settings.keep, opts.now);
  return { backup, pruned };
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
 * request. The first run is due one interval after the newest scheduled backup, so restarts do not pile up
 * backups; a failed run is logged and tried again after the next interval. stop() waits for a running one.
 */
export function startScheduledBackups(opts: {
  dataDir: string;
  settings: BackupSettings;
  log: Log;
  /** A start-up grace period before an overdue backup runs. */
  minDelayMs?: number;
}): { stop(): Promise<void> } {
  if (opts.settings.intervalHours <= 0) return { stop: async () => {} };
  const intervalMs = opts.settings.intervalHours * 3600_000;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;

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
        const { backup, pruned } = await runScheduledBackup({
          dataDir: opts.dataDir,
          settings: opts.settings,
        });
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
    },
  };
}
