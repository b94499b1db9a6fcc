import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { type DatabaseHandle, openDatabase } from '../db/connect.js';
import { takeLease } from '../db/job-lease.js';
import { migrateToLatest } from '../db/migrate.js';
import { LogService } from '../modules/logs/log-service.js';
import { DemoGateway } from '../modules/payments/demo-gateway.js';
import { runMaintenance, startMaintenance } from './maintenance.js';

describe('background maintenance across processes', () => {
  let dir: string;
  let handle: DatabaseHandle;
  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'store-maint-'));
    handle = openDatabase(path.join(dir, 'store.db'));
    await migrateToLatest(handle.db);
  });
  afterEach(async () => {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs on the process holding the lease; another process skips the round', async () => {
    const now = new Date('2026-11-25T10:00:00.000Z');
    const old = new Date(now.getTime() - 100 * 86_400_000).toISOString();
    await handle.db
      .insertInto('web_vitals')
      .values({ time: old, metric: 'LCP', value: 1000, route: '/', navigation_type: null })
      .execute();
    await handle.db
      .insertInto('rate_counters')
      .values([
        { key: 'login:ip:192.0.2.1', count: 3, reset_at: now.getTime() - 1, last_at: now.getTime() - 60_000 },
        { key: 'login:ip:192.0.2.2', count: 1, reset_at: now.getTime() + 60_000, last_at: now.getTime() },
      ])
      .execute();
    const deps = {
      db: handle.db,
      clock: { now: () => now },
      logs: new LogService({ db: handle.db, limits: { maxEntries: 1000, retentionDays: 30 } }),
      log: Fastify({ logger: false }).log,
      payments: new DemoGateway(),
      publicUrl: 'https://shop.example',
      // Longer than the log's 30 days: the 100-day-old entry goes, last month's stays.
      auditRetentionDays: 90,
    };
    const audit = (at: string) => ({
      at,
      admin_id: 1,
      admin_email: 'owner@shop.example',
      ip: null,
      action: 'admin.settings.update',
      target: null,
    });
    const lastMonth = new Date(now.getTime() - 40 * 86_400_000).toISOString();
    await handle.db
      .insertInto('admin_audit')
      .values([audit(old), audit(lastMonth)])
      .execute();
    const vitals = async () => (await handle.db.selectFrom('web_vitals').select('id').execute()).length;

    expect(await takeLease(handle.db, { name: 'maintenance', holder: 'process A', ttlMs: 60_000, now })).toBe(
      true,
    );
    expect(await runMaintenance(deps, 'process B')).toBe(false);
    expect(await vitals()).toBe(1);
    expect(await runMaintenance(deps, 'process A')).toBe(true);
    expect(await vitals()).toBe(0);
    const counters = await handle.db.selectFrom('rate_counters').select('key').execute();
    expect(counters.map((c) => c.key)).toEqual(['login:ip:192.0.2.2']);
    const kept = await handle.db.selectFrom('admin_audit').select('at').execute();
    expect(kept.map((r) => r.at)).toEqual([lastMonth]);
  });

  it('is taken over within about a minute when its holder is killed without giving the lease up', async () => {
    const t0 = new Date('2026-11-25T10:00:00.000Z').getTime();
    const deps = (ms: number) => ({
      db: handle.db,
      clock: { now: () => new Date(t0 + ms) },
      logs: new LogService({ db: handle.db, limits: { maxEntries: 1000, retentionDays: 30 } }),
      log: Fastify({ logger: false }).log,
      payments: new DemoGateway(),
      publicUrl: 'https://shop.example',
      auditRetentionDays: 90,
    });
    expect(await runMaintenance(deps(0), 'process A')).toBe(true);
    // Process A is killed here (kill -9): no release. The restarted store runs the housekeeping a minute on,
    // not once a 15-minute lease has run out.
    expect(await runMaintenance(deps(30_000), 'process B')).toBe(false);
    expect(await runMaintenance(deps(61_000), 'process B')).toBe(true);
  });

  it('started after a kill -9, takes the housekeeping over from the dead holder within about a minute, and runs it at once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const start = new Date('2026-11-25T10:00:00.000Z').getTime();
      vi.setSystemTime(start);
      const old = new Date(start - 100 * 86_400_000).toISOString();
      await handle.db
        .insertInto('web_vitals')
        .values({ time: old, metric: 'LCP', value: 1000, route: '/', navigation_type: null })
        .execute();
      // The killed process renewed its lease just before it died, and never gave it back.
      expect(
        await takeLease(handle.db, {
          name: 'maintenance',
          holder: 'killed',
          ttlMs: 60_000,
          now: new Date(start),
        }),
      ).toBe(true);
      const stop = startMaintenance(
        {
          db: handle.db,
          clock: { now: () => new Date() },
          logs: new LogService({ db: handle.db, limits: { maxEntries: 1000, retentionDays: 30 } }),
          log: Fastify({ logger: false }).log,
          payments: new DemoGateway(),
          publicUrl: 'https://shop.example',
          auditRetentionDays: 90,
        },
        'restarted',
      );
      const vitals = async () => (await handle.db.selectFrom('web_vitals').select('id').execute()).length;
      let ranAfter: number | null = null;
      for (let ms = 0; ms <= 5 * 60_000; ms += 1_000) {
        await vi.advanceTimersByTimeAsync(1_000);
        if ((await vitals()) === 0) {
          ranAfter = Date.now() - start;
          break;
        }
      }
      await stop();
      expect(ranAfter).not.toBeNull();
      // Not while the dead holder's minute lasts; within that and one check (20 s) after it.
      expect(ranAfter).toBeGreaterThanOrEqual(60_000);
      expect(ranAfter).toBeLessThanOrEqual(60_000 + 20_000 + 2_000);
    } finally {
      vi.useRealTimers();
    }
  });
});
