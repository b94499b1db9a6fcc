import { mkdirSync, readdirSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { takeLease } from '../db/job-lease.js';
import { createTestStore, type TestStore } from '../test-support/test-store.js';
import { createBackup } from './backup.js';
import {
  BACKUP_LEASE,
  listBackups,
  nextBackupDelay,
  pruneBackups,
  runLeasedBackup,
  runScheduledBackup,
  startScheduledBackups,
} from './scheduled-backups.js';

const HOUR = 3600_000;

/** Runs on the engine under test (TEST_DATABASE): the store's own database is what gets backed up. */
describe('scheduled backups', () => {
  let store: TestStore;
  afterEach(async () => store.cleanup());

  it('keeps exactly BACKUP_KEEP scheduled backups, the newest, and never prunes manual ones', async () => {
    store = await createTestStore();
    const settings = { dir: path.join(store.dir, 'backups'), intervalHours: 24, keep: 3 };
    const manual = await createBackup({
      dataDir: store.dir,
      backupRoot: settings.dir,
      kind: 'manual',
      now: new Date('2026-01-01T00:00:00Z'),
      database: store.database,
    });
    const made: string[] = [];
    for (let day = 1; day <= 6; day += 1) {
      const { backup, pruned } = await runScheduledBackup({
        dataDir: store.dir,
        settings,
        now: new Date(Date.UTC(2026, 0, 1 + day)),
        database: store.database,
      });
      made.push(path.basename(backup.dir));
      expect(pruned.length).toBe(day > 3 ? 1 : 0);
    }
    const left = await listBackups(settings.dir);
    expect(left.filter((b) => b.manifest.kind === 'scheduled').map((b) => b.name)).toEqual(
      made.slice(3).reverse(),
    );
    expect(left.map((b) => b.dir)).toContain(manual.dir);
    expect(readdirSync(settings.dir)).toHaveLength(4);
  });

  it('clears a partial backup a crash left more than a day ago, not one being written now', async () => {
    store = await createTestStore();
    const root = path.join(store.dir, 'backups');
    mkdirSync(path.join(root, '.partial-store-20260101T000000Z'), { recursive: true });
    mkdirSync(path.join(root, '.partial-store-20260102T000000Z'), { recursive: true });
    const old = new Date(Date.now() - 2 * 24 * HOUR);
    utimesSync(path.join(root, '.partial-store-20260101T000000Z'), old, old);
    expect(await pruneBackups(root, 5)).toEqual(['.partial-store-20260101T000000Z']);
    expect(readdirSync(root)).toEqual(['.partial-store-20260102T000000Z']);
  });

  it('is due one interval after the newest scheduled backup, so restarts do not pile them up', async () => {
    store = await createTestStore();
    const settings = { dir: path.join(store.dir, 'backups'), intervalHours: 24, keep: 3 };
    const now = new Date('2026-03-01T12:00:00Z');
    expect(await nextBackupDelay(settings, now, 60_000)).toBe(60_000); // none yet: soon after start
    await runScheduledBackup({
      dataDir: store.dir,
      settings,
      now: new Date('2026-03-01T06:00:00Z'),
      database: store.database,
    });
    expect(await nextBackupDelay(settings, now, 60_000)).toBe(18 * HOUR);
  });

  it('runs in the background on its own timer and stops cleanly; off when the interval is 0', async () => {
    store = await createTestStore();
    const dir = path.join(store.dir, 'backups');
    const log = { info: () => {}, error: () => {} };
    const off = startScheduledBackups({
      dataDir: store.dir,
      settings: { dir, intervalHours: 0, keep: 2 },
      log,
      minDelayMs: 0,
      db: store.handle.db,
      database: store.database,
    });
    await new Promise((r) => setTimeout(r, 100));
    await off.stop();
    expect(await listBackups(dir)).toEqual([]);

    const lines: string[] = [];
    const on = startScheduledBackups({
      dataDir: store.dir,
      settings: { dir, intervalHours: 1, keep: 2 },
      log: { info: (_o, msg) => lines.push(msg), error: (_o, msg) => lines.push(msg) },
      minDelayMs: 0,
      db: store.handle.db,
      database: store.database,
    });
    const deadline = Date.now() + 10_000;
    while ((await listBackups(dir)).length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    await on.stop();
    expect((await listBackups(dir)).map((b) => b.manifest.kind)).toEqual(['scheduled']);
    expect(lines[0]).toMatch(/^scheduled backup written to /);
  });

  it('runs on one process at a time: the holder of the lease backs up, another process skips its round', async () => {
    store = await createTestStore();
    const settings = { dir: path.join(store.dir, 'backups'), intervalHours: 24, keep: 3 };
    const now = new Date();
    const round = (holder: string) =>
      runLeasedBackup({
        db: store.handle.db,
        holder,
        dataDir: store.dir,
        settings,
        now,
        database: store.database,
      });
    expect(
      await takeLease(store.handle.db, { name: BACKUP_LEASE, holder: 'process A', ttlMs: 60_000, now }),
    ).toBe(true);
    expect(await round('process B')).toBeNull();
    expect(await listBackups(settings.dir)).toEqual([]);
    expect((await round('process A'))?.backup.manifest.kind).toBe('scheduled');
    expect(await listBackups(settings.dir)).toHaveLength(1);
  });

  it('two schedulers due at the same moment on one database make one backup between them', async () => {
    store = await createTestStore();
    const dir = path.join(store.dir, 'backups');
    const lines: string[] = [];
    const scheduler = (holder: string) =>
      startScheduledBackups({
        dataDir: store.dir,
        settings: { dir, intervalHours: 1, keep: 5 },
        log: { info: (_o, msg) => lines.push(`${holder}: ${msg}`), error: (_o, msg) => lines.push(msg) },
        minDelayMs: 0,
        db: store.handle.db,
        database: store.database,
        holder,
      });
    const both = [scheduler('process A'), scheduler('process B')];
    const deadline = Date.now() + 10_000;
    while ((await listBackups(dir)).length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    // Time for the other one's round to finish too, had it not been skipped.
    await new Promise((r) => setTimeout(r, 1000));
    await Promise.all(both.map((s) => s.stop()));
    expect(await listBackups(dir)).toHaveLength(1);
    expect(lines).toEqual([expect.stringMatching(/^process [AB]: scheduled backup written to /)]);
    // Both stopped: the lease was given up, so the next process to start takes the schedule at once.
    const later = new Date();
    expect(
      await takeLease(store.handle.db, { name: BACKUP_LEASE, holder: 'process C', ttlMs: 1000, now: later }),
    ).toBe(true);
  });
});

describe('backup settings', () => {
  it('are off by default, into DATA_DIR/backups, keeping 14; BACKUP_DIR, hours and "off" are read strictly', () => {
    expect(loadConfig({ DATA_DIR: '/srv/shop' }).backups).toEqual({
      dir: '/srv/shop/backups',
      intervalHours: 0,
      keep: 14,
    });
    expect(
      loadConfig({
        DATA_DIR: '/srv/shop',
        BACKUP_DIR: '/mnt/backup/shop',
        BACKUP_INTERVAL_HOURS: '6',
        BACKUP_KEEP: '28',
      }).backups,
    ).toEqual({ dir: '/mnt/backup/shop', intervalHours: 6, keep: 28 });
    expect(loadConfig({ BACKUP_INTERVAL_HOURS: 'off' }).backups.intervalHours).toBe(0);
    expect(() => loadConfig({ BACKUP_INTERVAL_HOURS: '-1' })).toThrow(ConfigError);
    expect(() => loadConfig({ BACKUP_KEEP: '0' })).toThrow(/BACKUP_KEEP/);
  });
});
