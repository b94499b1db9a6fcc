import { type Clock, systemClock } from '../../core/clock.js';
import type { DbOrTx } from '../../db/database.js';
import { type RevisionReader, STOREFRONT_REVISION_KEY } from '../../db/store-revision.js';
import type { Discount } from '../../shared/discounts.js';
import { readSales } from './discounts.repository.js';

/**
 * The storefront follows the clock (decision 0037): the revision the caches are keyed by is the stored one
 * (moved by every write, sales' included, migration 0029) with the index of the current instant among all
 * sales' start, end and ended instants after it. At a boundary every process's revision moves by itself,
 * so their cards, facet answers and snapshot revalidate with no restart and no write. Between two
 * boundaries the same sales run, so everything priced for a revision is priced at one instant of its
 * interval (pricingInstant): what a card cached under it says never depends on when it was read.
 */
export type SaleTimeline = {
  /** The stored revision the sales were read at. */
  stored: string;
  sales: readonly Discount[];
  /** Every start, end and ended instant (ms), sorted, each once. */
  instants: readonly number[];
};

export function timelineOf(stored: string, sales: readonly Discount[]): SaleTimeline {
  const all = new Set<number>();
  for (const sale of sales) {
    for (const at of [sale.startsAt, sale.endsAt, sale.endedAt]) {
      if (at === null) continue;
      const t = Date.parse(at);
      if (Number.isFinite(t)) all.add(t);
    }
  }
  return { stored, sales, instants: [...all].sort((a, b) => a - b) };
}

/** How many of the timeline's instants are at or before `t` (a sale starts at its start, ends at its end). */
export function instantIndex(instants: readonly number[], t: number): number {
  let lo = 0;
  let hi = instants.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((instants[mid] ?? 0) <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The revision at `now`: the stored one alone while there is no sale (every key stays as it was). */
export function revisionAt(timeline: SaleTimeline, now: Date): string {
  if (timeline.instants.length === 0) return timeline.stored;
  return `${timeline.stored}.${instantIndex(timeline.instants, now.getTime())}`;
}

/** The stored revision a revision is of (revisionAt's first part). */
export function storedPart(revision: string): string {
  const dot = revision.indexOf('.');
  return dot < 0 ? revision : revision.slice(0, dot);
}

/**
 * The instant a revision's prices are of: the first of its interval between two boundaries (every instant
 * of it runs the same sales). Before the first boundary, the moment before it; with no sales, now.
 */
export function pricingInstant(timeline: SaleTimeline, revision: string, now: Date): Date {
  const dot = revision.indexOf('.');
  if (dot < 0 || timeline.instants.length === 0 || storedPart(revision) !== timeline.stored) {
    // Not of this timeline (a revision read before a write): price at now, as the timeline has it.
    const index = instantIndex(timeline.instants, now.getTime());
    return atIndex(timeline, index, now);
  }
  const index = Number(revision.slice(dot + 1));
  return Number.isSafeInteger(index) ? atIndex(timeline, index, now) : now;
}

/** Whether a revision names its instant among the timeline's (every read of it then prices alike). */
export function isOfTimeline(timeline: SaleTimeline, revision: string): boolean {
  const dot = revision.indexOf('.');
  return (
    dot >= 0 &&
    storedPart(revision) === timeline.stored &&
    Number.isSafeInteger(Number(revision.slice(dot + 1)))
  );
}

function atIndex(timeline: SaleTimeline, index: number, now: Date): Date {
  if (timeline.instants.length === 0) return now;
  if (index <= 0) return new Date((timeline.instants[0] ?? 0) - 1);
  return new Date(timeline.instants[Math.min(index, timeline.instants.length) - 1] ?? 0);
}

/** Per database, the timeline of the stored revision last seen: the sales are read once per revision. */
const timelines = new WeakMap<object, SaleTimeline>();
const loading = new WeakMap<object, { stored: string; done: Promise<SaleTimeline> }>();

/** The timeline held for `db` when it is of `stored`, else null (see saleTimeline). */
export function heldTimeline(db: DbOrTx, stored: string): SaleTimeline | null {
  const held = timelines.get(db);
  return held?.stored === stored ? held : null;
}

/** The sales as of stored revision `stored`, read once per revision (requests of one moment share the read). */
export function saleTimeline(db: DbOrTx, stored: string): Promise<SaleTimeline> {
  const held = heldTimeline(db, stored);
  if (held) return Promise.resolve(held);
  const inflight = loading.get(db);
  if (inflight?.stored === stored) return inflight.done;
  const done = readSales(db)
    .then((sales) => {
      const timeline = timelineOf(stored, sales);
      timelines.set(db, timeline);
      return timeline;
    })
    .finally(() => {
      if (loading.get(db)?.done === done) loading.delete(db);
    });
  loading.set(db, { stored, done });
  return done;
}

/** The clock the storefront's revision of a database follows: the app's (a test's fake one), else the system's. */
const clocks = new WeakMap<object, Clock>();

export function storefrontClock(db: DbOrTx): Clock {
  return clocks.get(db) ?? systemClock;
}

/**
 * The store's revision reader made to follow the clock: its reads add the instant's index (revisionAt).
 * A read whose stored revision's sales are not read yet throws (the caller caches nothing, as for any
 * revision it cannot read) and starts the read; settle() awaits it, so settled reads always answer.
 */
export function clockedRevisionReader(read: RevisionReader, db: DbOrTx, clock: Clock): RevisionReader {
  clocks.set(db, clock);
  const clocked = () => {
    const stored = read();
    const timeline = heldTimeline(db, stored);
    if (!timeline) {
      void saleTimeline(db, stored).catch(() => undefined);
      throw new Error('the sales of this revision are not read yet');
    }
    return revisionAt(timeline, clock.now());
  };
  const settled = async () => {
    await read.settle?.();
    return revisionAt(await saleTimeline(db, read()), clock.now());
  };
  return Object.assign(clocked, {
    settle: async () => {
      await settled();
    },
    settled,
  });
}

/**
 * The storefront revision read through the query builder (inside a transaction, the transaction's own),
 * with the clock's index as the app's revision reader has it: for callers the request gave none.
 */
export async function storefrontRevision(db: DbOrTx): Promise<string> {
  const row = await db
    .selectFrom('app_meta')
    .select('value')
    .where('key', '=', STOREFRONT_REVISION_KEY)
    .executeTakeFirst();
  const stored = row?.value ?? '0';
  return revisionAt(await saleTimeline(db, stored), storefrontClock(db).now());
}
