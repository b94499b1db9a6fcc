import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openThrowawayPostgres,
  openThrowawaySqlite,
  type ThrowawayStore,
} from '../test-support/throwaway-databases.js';
import {
  keepLease,
  LEASE_RENEW_MS,
  LEASE_TTL_MS,
  releaseLease,
  takeLease,
  whileHoldingLease,
} from './job-lease.js';
import { migrateToLatest } from './migrate.js';

type Engine = { name: string; open(): Promise<ThrowawayStore> };

const engines: Engine[] = [
  {
    name: 'SQLite',
    async open() {
      const store = openThrowawaySqlite('store-lease');
      await migrateToLatest(store.db);
      return store;
    },
  },
  {
    name: 'PostgreSQL',
    async open() {
      const store = await openThrowawayPostgres(4);
      await migrateToLatest(store.db, 'postgres');
      return store;
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
    const job = { name: 'reconcile', ttlMs: 60_000, clock: { now: () => at(0) } };
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

  /** A clock the test moves by hand. */
  const manualClock = (start: number) => {
    let t = start;
    return {
      now: () => at(t),
      set: (ms: number) => {
        t = ms;
      },
      get: () => t,
    };
  };
  const expiresAt = async (name: string) =>
    (await store.db.selectFrom('job_leases').select('expires_at').where('name', '=', name).executeTakeFirst())
      ?.expires_at;

  it('keeps the lease while its holder renews it, past the old 15-minute bound; a killed holder loses it within a minute', async () => {
    const clock = manualClock(0);
    const a = keepLease(store.db, { name: 'maintenance-kept', holder: 'A', clock });
    expect(await a.renew()).toBe(true);
    // Renewed every 20 s for 20 minutes: nobody else gets it meanwhile.
    for (let t = LEASE_RENEW_MS; t <= 20 * 60_000; t += LEASE_RENEW_MS) {
      clock.set(t);
      expect(await a.renew()).toBe(true);
      expect(
        await takeLease(store.db, {
          name: 'maintenance-kept',
          holder: 'B',
          ttlMs: LEASE_TTL_MS,
          now: at(t + 1),
        }),
      ).toBe(false);
      expect(a.held()).toBe(true);
    }
    // A is killed (kill -9): no renewal, no release. Another process asking every 20 s takes over within a minute
    // and 20 s of A's last renewal.
    const lastRenewal = clock.get();
    const b = keepLease(store.db, { name: 'maintenance-kept', holder: 'B', clock });
    let takenAt: number | null = null;
    for (let t = lastRenewal + LEASE_RENEW_MS; t <= lastRenewal + 5 * 60_000; t += LEASE_RENEW_MS) {
      clock.set(t);
      if (await b.renew()) {
        takenAt = t;
        break;
      }
    }
    expect(takenAt).not.toBeNull();
    expect((takenAt ?? Number.POSITIVE_INFINITY) - lastRenewal).toBeLessThanOrEqual(
      LEASE_TTL_MS + LEASE_RENEW_MS,
    );
    expect(LEASE_TTL_MS + LEASE_RENEW_MS).toBeLessThanOrEqual(90_000);
    // The old holder, had it only stalled, no longer counts itself the holder either.
    expect(a.held()).toBe(false);
  });

  it('stops the work of the old holder and says so when a renewal finds another process holding the lease', async () => {
    const clock = manualClock(0);
    const warnings: object[] = [];
    const log = { info: () => {}, warn: (obj: object) => void warnings.push(obj) };
    const a = keepLease(store.db, { name: 'stalled', holder: 'A', clock, log });
    expect(await a.renew()).toBe(true);
    expect(a.signal.aborted).toBe(false);
    // A stalls past its lease (a paused VM), B takes the job over, then A's heartbeat comes back.
    clock.set(LEASE_TTL_MS + 1);
    expect(
      await takeLease(store.db, {
        name: 'stalled',
        holder: 'B',
        ttlMs: LEASE_TTL_MS,
        now: at(LEASE_TTL_MS + 1),
      }),
    ).toBe(true);
    expect(await a.renew()).toBe(false);
    expect(a.signal.aborted).toBe(true);
    expect(warnings).toEqual([
      expect.objectContaining({ event: 'lease.lost', lease: 'stalled', holder: 'A' }),
    ]);
  });

  it('renews the lease on a heartbeat while a job longer than the lease runs, and leaves it afterwards', async () => {
    const clock = manualClock(0);
    const name = 'long-job';
    let ran = false;
    const held = await whileHoldingLease(
      store.db,
      { name, holder: 'A', clock, renewEveryMs: 10 },
      async (signal) => {
        // Three minutes of work, three times the lease: each minute the heartbeat has moved the lease on.
        for (let t = 60_000; t <= 180_000; t += 60_000) {
          clock.set(t);
          const due = at(t + LEASE_TTL_MS).toISOString();
          const deadline = Date.now() + 20_000;
          while ((await expiresAt(name)) !== due && Date.now() < deadline)
            await new Promise((r) => setTimeout(r, 10));
          expect(await expiresAt(name)).toBe(due);
          expect(await takeLease(store.db, { name, holder: 'B', ttlMs: LEASE_TTL_MS, now: at(t + 1) })).toBe(
            false,
          );
        }
        ran = !signal.aborted;
      },
    );
    expect(held).toBe(true);
    expect(ran).toBe(true);
    // Not released (its holder keeps it between runs): the heartbeat stopped, so it runs out a minute later.
    expect(
      await takeLease(store.db, { name, holder: 'B', ttlMs: LEASE_TTL_MS, now: at(180_000 + LEASE_TTL_MS) }),
    ).toBe(true);
  });
});
