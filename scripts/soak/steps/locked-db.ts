/**
 * Fault: another process holds the database's write lock (BEGIN IMMEDIATE, as a backup script or a stuck
 * CLI would). Proves the lock budget (LOCK_WAIT_MS, db/connect.ts) both ways, each from the server's answers:
 * - held for less than the budget: an order and an admin save wait, and succeed after the release (not
 *   before it, and not a 503 at once);
 * - held for longer: they answer 503 "busy" once the budget is spent, not earlier, and not never;
 * - all the while, /healthz and uncached reads (a quote, a catalogue page) answer quickly: the wait must not
 *   stall the server, whose SQLite driver would otherwise wait for the lock on its only thread.
 */
import SQLite from 'better-sqlite3';
import { databaseFile, LOCK_WAIT_MS } from '../../../src/db/connect.js';
import { errorMessage, type Reply, send, signIn, trpcData, trpcGetPath, trpcMutation } from '../http.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../server.js';
import { Checks, fmtMs, type Soak, type StepResult, sleep } from '../step.js';
import { buyableProducts, verifyFolder, withDb } from '../store-checks.js';

/** Well inside the budget, and long enough that a write which did not wait could not pass for one that did. */
const SHORT_HOLD_MS = 1500;
/** Past the budget by enough that the 503 comes while the lock is still held. */
const LONG_HOLD_MS = LOCK_WAIT_MS + 2500;
/** A read or /healthz slower than this while the lock is held means the server stalled. */
const QUICK_MS = 1000;
/** How late after the budget a 503 may come (a loaded machine's timers run late). */
const BUDGET_SLACK_MS = 2000;

type Outcome = { status: number; ms: number; message: string | null; answeredAt: number };

async function attempt(request: Promise<Reply>): Promise<Outcome> {
  const t = performance.now();
  try {
    const r = await request;
    return { status: r.status, ms: r.ms, message: errorMessage(r), answeredAt: performance.now() };
  } catch (error) {
    const now = performance.now();
    return { status: 0, ms: now - t, message: (error as Error).message, answeredAt: now };
  }
}

type Phase = { writes: Array<[string, Outcome]>; probes: Outcome[]; heldMs: number; releasedAt: number };

/**
 * Holds the write lock for `holdMs`, sends the writes as it takes it, and probes the server's reads every
 * 200 ms while it holds it. Resolves once every write has answered.
 */
async function underLock(
  soak: Soak,
  holdMs: number,
  writes: Array<[string, () => Promise<Reply>]>,
  probe: (i: number) => Promise<Reply>,
): Promise<Phase> {
  const holder = new SQLite(databaseFile(soak.dataDir));
  let releasedAt = Number.POSITIVE_INFINITY;
  let heldMs = 0;
  try {
    holder.exec('BEGIN IMMEDIATE');
    const lockedAt = performance.now();
    const pending = writes.map(async ([name, write]) => [name, await attempt(write())] as [string, Outcome]);
    const probes: Outcome[] = [];
    for (let i = 0; performance.now() - lockedAt < holdMs - 250; i++) {
      probes.push(await attempt(send({ port: soak.port, path: '/healthz', timeoutMs: 30_000 })));
      probes.push(await attempt(probe(i)));
      await sleep(200);
    }
    await sleep(Math.max(0, holdMs - (performance.now() - lockedAt)));
    holder.exec('ROLLBACK');
    releasedAt = performance.now();
    heldMs = releasedAt - lockedAt;
    return { writes: await Promise.all(pending), probes, heldMs, releasedAt };
  } finally {
    if (holder.inTransaction) holder.exec('ROLLBACK');
    holder.close();
  }
}

function judgeProbes(checks: Checks, label: string, probes: Outcome[]): void {
  const slowest = Math.max(...probes.map((p) => p.ms));
  const failed = probes.filter((p) => p.status !== 200);
  checks.check(
    probes.length > 0 && failed.length === 0 && slowest < QUICK_MS,
    `${label}: ${probes.length} reads and /healthz probes all answered 200${failed.length ? ` (not: ${failed.map((p) => `${p.status} ${p.message ?? ''}`).join('; ')})` : ''}, the slowest in ${fmtMs(slowest)} (must be under ${fmtMs(QUICK_MS)})`,
  );
}

export async function lockedDbStep(soak: Soak): Promise<StepResult> {
  const started = performance.now();
  const checks = new Checks();
  const port = soak.port;
  const cookie = await signIn(port, ADMIN_EMAIL, ADMIN_PASSWORD);
  const settings = trpcData<Record<string, unknown>>(
    await send({ port, path: trpcGetPath(['admin.settings.get'], [undefined]), headers: { cookie } }),
  );
  const [product] = await withDb(soak.dataDir, buyableProducts);
  if (!product) throw new Error('no product to buy');
  const lines = [{ productId: product.id, colour: product.colour, size: product.size, quantity: 1 }];
  const writes: Array<[string, () => Promise<Reply>]> = [
    [
      'order creation',
      () => send({ port, ...trpcMutation('checkout.createSession', { lines }), timeoutMs: 60_000 }),
    ],
    [
      'admin settings save',
      () => send({ port, ...trpcMutation('admin.settings.update', settings, { cookie }), timeoutMs: 60_000 }),
    ],
  ];
  // Uncached reads that go to the database: a quote, and a catalogue page at an offset never asked before.
  const probe = (i: number) =>
    send({
      port,
      path: trpcGetPath(
        ['checkout.quote', 'catalogue.search'],
        [{ lines }, { limit: 24, cursor: 24 * (i + 7) }],
      ),
      timeoutMs: 30_000,
    });

  checks.note(`lock budget ${fmtMs(LOCK_WAIT_MS)} (LOCK_WAIT_MS, src/db/connect.ts)`);
  const short = await underLock(soak, SHORT_HOLD_MS, writes, probe);
  for (const [what, o] of short.writes) {
    checks.check(
      o.status === 200 && o.answeredAt >= short.releasedAt,
      `lock held ${fmtMs(short.heldMs)} (under the budget): ${what} waited and answered ${o.status} after ${fmtMs(o.ms)}, ${o.answeredAt >= short.releasedAt ? 'after' : 'BEFORE'} the release${o.status === 200 ? '' : ` ("${o.message ?? ''}")`}`,
    );
  }
  judgeProbes(checks, 'while the lock was held under the budget', short.probes);

  const long = await underLock(soak, LONG_HOLD_MS, writes, probe);
  for (const [what, o] of long.writes) {
    const inBudget = o.ms >= LOCK_WAIT_MS - 50 && o.ms <= LOCK_WAIT_MS + BUDGET_SLACK_MS;
    checks.check(
      o.status === 503 && inBudget && o.answeredAt < long.releasedAt,
      `lock held ${fmtMs(long.heldMs)} (past the budget): ${what} answered ${o.status || 'nothing'} after ${fmtMs(o.ms)} ("${o.message ?? ''}"); expected 503 between ${fmtMs(LOCK_WAIT_MS)} and ${fmtMs(LOCK_WAIT_MS + BUDGET_SLACK_MS)}, while still locked`,
    );
  }
  judgeProbes(checks, 'while the lock was held past the budget', long.probes);

  checks.check(soak.server.running(), 'the server is still running');
  for (const [what, write] of writes) {
    const after = await attempt(write());
    checks.check(after.status === 200, `${what} after the release: ${after.status} in ${fmtMs(after.ms)}`);
  }
  checks.add(
    await verifyFolder(soak.dataDir, { catalogue: [soak.catalogue], paidSessions: soak.paidSessions }),
  );
  return checks.result('Fault: database locked by another process', started);
}
