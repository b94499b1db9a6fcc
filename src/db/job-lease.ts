import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { type Clock, systemClock } from '../core/clock.js';
import type { Db } from './database.js';

/** This process, as a lease holder: unique across machines and restarts. */
export const thisProcess = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

/**
 * How long a lease lasts without renewal. Short, so a process killed without giving its leases back
 * (`kill -9`, a power cut) holds up the background work for about a minute, not for a whole job's interval:
 * the holder renews every LEASE_RENEW_MS while it lives, and a job that runs longer keeps it that way.
 */
export const LEASE_TTL_MS = 60_000;
/** A third of the lease: two renewals may fail (a slow or restarting database) before it runs out. */
export const LEASE_RENEW_MS = 20_000;

/**
 * Takes or renews the lease on a background job until `now + ttlMs`, in one statement: the row is written
 * only when nobody holds it, its holder's time has run out, or this holder renews it. True when this holder
 * has the lease afterwards. Works alike on SQLite and PostgreSQL (INSERT … ON CONFLICT … WHERE, RETURNING).
 */
export async function takeLease(
  db: Db,
  job: { name: string; holder: string; ttlMs: number; now: Date },
): Promise<boolean> {
  const nowIso = job.now.toISOString();
  const expiresAt = new Date(job.now.getTime() + job.ttlMs).toISOString();
  const row = await db
    .insertInto('job_leases')
    .values({ name: job.name, holder: job.holder, expires_at: expiresAt })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ holder: job.holder, expires_at: expiresAt })
        .where((eb) =>
          eb.or([eb('job_leases.expires_at', '<=', nowIso), eb('job_leases.holder', '=', job.holder)]),
        ),
    )
    .returning('holder')
    .executeTakeFirst();
  return row?.holder === job.holder;
}

/** Gives the lease up at once (on shutdown), so another process need not wait for it to expire. */
export async function releaseLease(db: Db, job: { name: string; holder: string }): Promise<void> {
  await db.deleteFrom('job_leases').where('name', '=', job.name).where('holder', '=', job.holder).execute();
}

type LeaseLog = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

export type LeaseOptions = {
  name: string;
  holder?: string;
  ttlMs?: number;
  renewEveryMs?: number;
  clock?: Clock;
  log?: LeaseLog;
  /** Called each time this holder takes the lease after not holding it (at start, or taking over). */
  onTaken?: () => void;
};

/** A lease this process asks for and, once it has it, renews on a heartbeat until stopped. */
export type KeptLease = {
  /** Held as of the last renewal, and that renewal's time has not run out. */
  held(): boolean;
  /** Aborted when the lease is lost (another holder has it, or renewals failed until it ran out). */
  readonly signal: AbortSignal;
  /** Asks for the lease (or renews it) now; true when this holder has it afterwards. */
  renew(): Promise<boolean>;
  /** Renews every `renewEveryMs` on an unref'd timer, one renewal at a time. */
  start(): KeptLease;
  /** Stops renewing (waiting for a renewal in flight); `release` gives the lease up for others at once. */
  stop(opts: { release: boolean }): Promise<void>;
};

export function keepLease(db: Db, opts: LeaseOptions): KeptLease {
  const name = opts.name;
  const holder = opts.holder ?? thisProcess;
  const ttlMs = opts.ttlMs ?? LEASE_TTL_MS;
  const renewEveryMs = opts.renewEveryMs ?? LEASE_RENEW_MS;
  const clock = opts.clock ?? systemClock;
  let heldUntil = 0;
  let controller = new AbortController();
  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<boolean> | null = null;
  let stopped = false;

  const held = () => heldUntil > clock.now().getTime();
  const lose = (why: 'taken' | 'expired') => {
    heldUntil = 0;
    controller.abort(new Error(`lease ${name} lost`));
    opts.log?.warn(
      { event: 'lease.lost', lease: name, holder, why },
      why === 'taken'
        ? `another process took the ${name} lease: this one stops that work`
        : `the ${name} lease ran out before it could be renewed: this one stops that work`,
    );
  };
  const ask = async (): Promise<boolean> => {
    const now = clock.now();
    const wasHeld = held();
    let has: boolean;
    try {
      has = await takeLease(db, { name, holder, ttlMs, now });
    } catch {
      // The database is away: the lease stands until its time runs out; the caller's own work logs the outage.
      if (heldUntil > 0 && !held()) lose('expired');
      return held();
    }
    if (has) {
      if (!wasHeld) {
        if (controller.signal.aborted) controller = new AbortController();
        opts.onTaken?.();
      }
      heldUntil = now.getTime() + ttlMs;
    } else if (heldUntil > 0) {
      lose('taken');
    }
    return has;
  };
  const renew = (): Promise<boolean> => {
    inFlight ??= ask().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void renew().finally(schedule), renewEveryMs);
    timer.unref();
  };

  const lease: KeptLease = {
    held,
    get signal() {
      return controller.signal;
    },
    renew,
    start() {
      if (!timer && !stopped) schedule();
      return lease;
    },
    async stop({ release }) {
      stopped = true;
      if (timer) clearTimeout(timer);
      await inFlight;
      heldUntil = 0;
      if (release) await releaseLease(db, { name, holder }).catch(() => undefined);
    },
  };
  return lease;
}

/**
 * Runs `work` only if this holder gets the job's lease, renewing it on a heartbeat while the work runs, so a
 * run longer than the lease keeps it; the work gets a signal that aborts if the lease is lost meanwhile.
 * Afterwards the lease is given up (`release`) or left to run out (a job whose holder keeps it between runs).
 * False when another process has it.
 */
export async function whileHoldingLease(
  db: Db,
  job: LeaseOptions & { release?: boolean },
  work: (signal: AbortSignal) => Promise<void>,
): Promise<boolean> {
  const lease = keepLease(db, job);
  if (!(await lease.renew())) return false;
  lease.start();
  try {
    await work(lease.signal);
  } finally {
    await lease.stop({ release: job.release ?? false });
  }
  return true;
}
