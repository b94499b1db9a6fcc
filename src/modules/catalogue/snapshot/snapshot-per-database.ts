import type { FastifyBaseLogger } from 'fastify';
import type { DbOrTx } from '../../../db/database.js';
import { type DatabaseSource, databaseSource } from '../../../db/database-source.js';
import { type FacetLoadOptions, readFacetLoadInWorker } from './facet-load-in-worker.js';
import {
  type FacetSnapshot,
  loadFacetSnapshot,
  refreshFacetSnapshot,
  snapshotFromLoad,
} from './facet-snapshot.js';

/**
 * One facet snapshot per database, kept current (decision 10), with full loads off the main thread
 * (decision 23). better-sqlite3 is synchronous, so a full load on the main thread (about a second at
 * 100,000 products) stalled every request; here it runs in a worker on a connection of its own, and the
 * main thread only turns its arrays into a snapshot.
 */

/** Catalogues up to this many products load on the main thread: a worker's start-up costs more than that. */
export const INLINE_LOAD_MAX_PRODUCTS = 1_000;

export type SnapshotOptions = FacetLoadOptions & {
  /** Where a failed worker is reported (stderr without one). */
  log?: Pick<FastifyBaseLogger, 'warn'> | undefined;
  /** Loads of catalogues with at most this many products run on the main thread. */
  inlineMaxProducts?: number;
};

type Snapshots = {
  /** The snapshot answering now. */
  current: FacetSnapshot | null;
  /** Refreshes run one after another, each on the snapshot the previous one left. */
  queue: Promise<unknown>;
  /**
   * The full load in flight: at most one per database, and it replaces `current` when it lands. So no
   * load can land after a newer one started; and no refresh touches `current` meanwhile, so what a load
   * replaces is always older than what it brings.
   */
  loading: Promise<void> | null;
};

const byDatabase = new WeakMap<object, Snapshots>();

function snapshotsOf(db: DbOrTx): Snapshots {
  let state = byDatabase.get(db);
  if (!state) {
    state = { current: null, queue: Promise.resolve(), loading: null };
    byDatabase.set(db, state);
  }
  return state;
}

/**
 * The snapshot to count `revision` with: the one held, or it refreshed with the few products changed
 * since. When a full load is due instead, it starts in the background and the snapshot held answers until
 * it lands; that snapshot's `revision` then says it is older, and its answers must not be kept under
 * `revision`. With no snapshot yet, this waits for the load (in a worker: the event loop stays free).
 */
export async function snapshotFor(
  db: DbOrTx,
  revision: string,
  opts: SnapshotOptions = {},
): Promise<FacetSnapshot> {
  return landed(await queued(db, revision, opts, true));
}

/**
 * As snapshotFor, but where it would wait for a first load in a worker this answers null at once (the load
 * goes on): for callers that can answer without a snapshot, as the listing can in SQL.
 */
export function snapshotIfReady(
  db: DbOrTx,
  revision: string,
  opts: SnapshotOptions = {},
): Promise<FacetSnapshot | null> {
  return queued(db, revision, opts, false);
}

function queued(
  db: DbOrTx,
  revision: string,
  opts: SnapshotOptions,
  wait: boolean,
): Promise<FacetSnapshot | null> {
  const state = snapshotsOf(db);
  const next = state.queue.then(() => step(db, state, revision, opts, wait));
  state.queue = next.catch(() => undefined);
  return next;
}

async function step(
  db: DbOrTx,
  state: Snapshots,
  revision: string,
  opts: SnapshotOptions,
  wait: boolean,
): Promise<FacetSnapshot | null> {
  const held = state.current;
  if (held?.revision === revision) return held;
  // A full load is in flight (in a worker): the held snapshot answers until it lands, untouched, so what
  // the load replaces is always older than what it brings.
  if (held && state.loading) return held;
  if (held) {
    let refreshed: FacetSnapshot | null;
    try {
      refreshed = await refreshFacetSnapshot(db, held, revision);
    } catch (error) {
      // As before there were workers: a failed refresh leaves no snapshot, so the next call loads afresh.
      if (state.current === held) state.current = null;
      throw error;
    }
    if (refreshed) return refreshed;
  }
  // A full load is due.
  if (state.loading) {
    if (!wait) return null;
    await state.loading;
    return landed(state.current);
  }
  const source = await loadsInWorker(db, opts);
  const loading = startLoad(db, state, revision, source, opts);
  if ((held || !wait) && source) {
    // The held snapshot answers until the load lands. Its failure is reported by the load itself, and the
    // next request that finds the snapshot behind starts another.
    loading.catch(() => undefined);
    return held ?? null;
  }
  // No snapshot yet (the event loop stays free while a worker loads), or a small catalogue loading here:
  // a few milliseconds, worth waiting for an answer of this revision.
  await loading;
  return landed(state.current);
}

function landed(snap: FacetSnapshot | null): FacetSnapshot {
  if (!snap) throw new Error('the facet snapshot load ended without a snapshot');
  return snap;
}

/** Whether a full load should run in a worker: the database can be opened there, and it is worth it. */
async function loadsInWorker(db: DbOrTx, opts: SnapshotOptions): Promise<DatabaseSource | null> {
  const source = databaseSource(db);
  if (!source) return null;
  return (await productCount(db)) > (opts.inlineMaxProducts ?? INLINE_LOAD_MAX_PRODUCTS) ? source : null;
}

/** Starts a full load unless one is in flight; either way, the promise of the one in flight. */
function startLoad(
  db: DbOrTx,
  state: Snapshots,
  revision: string,
  source: DatabaseSource | null,
  opts: SnapshotOptions,
): Promise<void> {
  if (state.loading) return state.loading;
  const loading = loadSnapshot(db, revision, source, opts)
    .then((snap) => {
      state.current = snap;
    })
    .finally(() => {
      state.loading = null;
    });
  state.loading = loading;
  return loading;
}

/**
 * A full load, in a worker when `source` is given. A worker that fails is reported and the load is done
 * once on this thread, so a broken worker never breaks the facets.
 */
async function loadSnapshot(
  db: DbOrTx,
  revision: string,
  source: DatabaseSource | null,
  opts: SnapshotOptions,
): Promise<FacetSnapshot> {
  if (source) {
    try {
      return snapshotFromLoad(await readFacetLoadInWorker(source, opts), revision);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const message = 'the facet snapshot could not be loaded in a worker; loading it on the main thread';
      if (opts.log) opts.log.warn({ event: 'facets.worker_failed', reason }, message);
      else process.stderr.write(`${message}: ${reason}\n`);
    }
  }
  return loadFacetSnapshot(db, revision);
}

async function productCount(db: DbOrTx): Promise<number> {
  const row = await db
    .selectFrom('products')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The full load in flight for `db`, if any: tests and the bench wait for it to land. */
export function facetLoadInFlight(db: DbOrTx): Promise<void> | null {
  return byDatabase.get(db)?.loading ?? null;
}
