import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { releaseLease, takeLease } from '../db/job-lease.js';
import { SHARED_GRACE_MS, snapshotUploads } from '../modules/media/orphan-sweep.js';
import type { FileStorage } from '../storage/file-storage.js';
import { startS3Server, type TestS3Server } from '../test-support/s3.js';
import { createTestStore, type TestStore } from '../test-support/test-store.js';
import { ORPHAN_SWEEP_LEASE, runOrphanSweep } from './orphan-sweep-job.js';

const ORPHAN = 'media/uploads/orphan-1024.webp';

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.close();
});

describe('the start-up orphan sweep as a job', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await createTestStore();
  });
  afterEach(async () => {
    await store.cleanup();
  });

  const otherProcess = { name: ORPHAN_SWEEP_LEASE, holder: 'other-machine:1:abcd' };
  const sweep = (storage: FileStorage, now: Date) =>
    snapshotUploads(storage).then((snapshot) =>
      runOrphanSweep({ db: store.handle.db, snapshot, now, holder: 'this-machine:2:ef01' }),
    );

  it('on a shared bucket, runs on one process at a time and gives the lease back', async () => {
    const { storage } = await s3.bucket();
    await storage.put(ORPHAN, Buffer.from('x'));
    const later = new Date(Date.now() + 2 * SHARED_GRACE_MS);
    await takeLease(store.handle.db, { ...otherProcess, ttlMs: 60_000, now: new Date() });
    expect(await sweep(storage, later)).toBeNull();
    expect(await storage.exists(ORPHAN)).toBe(true);

    await releaseLease(store.handle.db, otherProcess);
    expect((await sweep(storage, later))?.removed).toEqual([ORPHAN]);
    const leases = await store.handle.db.selectFrom('job_leases').select('name').execute();
    expect(leases).toEqual([]);
  });

  it('on the data folder, the one process that owns it always sweeps', async () => {
    await store.storage.put(ORPHAN, Buffer.from('x'));
    await takeLease(store.handle.db, { ...otherProcess, ttlMs: 60_000, now: new Date() });
    expect((await sweep(store.storage, new Date(Date.now() + 60_000)))?.removed).toEqual([ORPHAN]);
  });
});
