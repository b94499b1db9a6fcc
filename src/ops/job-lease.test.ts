import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/connect.js';
import type { Db } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { openPostgres } from '../db/postgres/connect-postgres.js';
import { createThrowawayDatabase } from '../test-support/postgres.js';
import { releaseLease, takeLease, whileHoldingLease } from './job-lease.js';

type Engine = { name: string; open(): Promise<{ db: Db; close(): Promise<void> }> };

const engines: Engine[] = [
  {
    name: 'SQLite',
    async open() {
      const dir = mkdtempSync(path.join(tmpdir(), 'store-lease-'));
      const handle = openDatabase(path.join(dir, 'store.db'));
      await migrateToLatest(handle.db);
      return {
        db: handle.db,
        async close() {
          await handle.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    async open() {
      const database = await createThrowawayDatabase();
      const handle = openPostgres(database.url, 4);
      await migrateToLatest(handle.db, 'postgres');
      return {
        db: handle.db,
        async close() {
          await handle.close();
          await database.drop();
        },
      };
    },
  },
];

describe.each(engines)('job leases on $name', (engine) => {
  let store: Awaited<ReturnType<Engine['open']>>;
  beforeAll(async () => {
    store = await engine.open();
  });
  afterAll(async () => store?.close());

  const t0 = new Date('2026-11-25T10:00:00.000Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);

  it('lets one holder at a time run a job until its lease expires, and its holder renew it', async () => {
    const job = { name: 'prune-logs', ttlMs: 60_000 };
    expect(await takeLease(store.db, { ...job, holder: 'A', now: at(0) })).toBe(true);
    expect(await takeLease(store.db, { ...job, holder: 'B', now: at(1_000) })).toBe(false);
    expect(await takeLease(store.db, { ...job, holder: 'A', now: at(30_000) })).toBe(true);
    // Renewed at 30 s, so B still waits at 61 s; A stops renewing and B takes over after 90 s.
    expect(await takeLease(store.db, { ...job, holder: 'B', now: at(61_000) })).toBe(false);
    expect(await takeLease(store.db, { ...job, holder: 'B', now: at(90_000) })).toBe(true);
    expect(await takeLease(store.db, { ...job, holder: 'A', now: at(91_000) })).toBe(false);
  });

  it('frees a released lease at once, and keeps jobs apart', async () => {
    const job = { name: 'orphan-sweep', ttlMs: 600_000 };
    expect(await takeLease(store.db, { ...job, holder: 'A', now: at(0) })).toBe(true);
    expect(await takeLease(store.db, { name: 'backups', ttlMs: 1000, holder: 'B', now: at(0) })).toBe(true);
    await releaseLease(store.db, { name: job.name, holder: 'B' });
    expect(await takeLease(store.db, { ...job, holder: 'B', now: at(1) })).toBe(false);
    await releaseLease(store.db, { name: job.name, holder: 'A' });
    expect(await takeLease(store.db, { ...job, holder: 'B', now: at(2) })).toBe(true);
  });

  it('among many processes asking at the same moment, gives the lease to exactly one', async () => {
    const job = { name: 'reconcile', ttlMs: 60_000, now: at(0) };
    const runs: string[] = [];
    const holders = Array.from({ length: 8 }, (_, i) => `P${i}`);
    const results = await Promise.all(
      holders.map((holder) =>
        whileHoldingLease(store.db, { ...job, holder }, async () => void runs.push(holder)),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(runs).toHaveLength(1);
  });
});
