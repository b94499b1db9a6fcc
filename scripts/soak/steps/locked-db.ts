/**
 * Fault: another process holds the database's write lock (BEGIN IMMEDIATE, as a backup script or a
 * stuck CLI would). Writes must answer 503 once the busy timeout (5 s, db/connect.ts) runs out, not hang
 * and not crash; reads meanwhile, and writes after the release, must work.
 */
import SQLite from 'better-sqlite3';
import { databaseFile } from '../../../src/db/connect.js';
import { errorMessage, type Reply, send, signIn, trpcData, trpcGetPath, trpcMutation } from '../http.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../server.js';
import { Checks, fmtMs, type Soak, type StepResult, sleep } from '../step.js';
import { buyableProducts, verifyFolder, withDb } from '../store-checks.js';

const BUSY_TIMEOUT_MS = 5000;

type Outcome = { status: number; ms: number; message: string | null };

async function attempt(request: Promise<Reply>): Promise<Outcome> {
  const t = performance.now();
  try {
    const r = await request;
    return { status: r.status, ms: r.ms, message: errorMessage(r) };
  } catch (error) {
    return { status: 0, ms: performance.now() - t, message: (error as Error).message };
  }
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
  const lines = [{ productId: product.id, size: product.size, quantity: 1 }];
  const createOrder = () =>
    send({ port, ...trpcMutation('checkout.createSession', { lines }), timeoutMs: 60_000 });
  const saveSettings = () =>
    send({ port, ...trpcMutation('admin.settings.update', settings, { cookie }), timeoutMs: 60_000 });

  const holder = new SQLite(databaseFile(soak.dataDir));
  holder.exec('BEGIN IMMEDIATE');
  let order: Outcome;
  let save: Outcome;
  let read: Outcome;
  try {
    const ordering = attempt(createOrder());
    await sleep(1000);
    read = await attempt(send({ port, path: '/healthz', timeoutMs: 60_000 }));
    order = await ordering;
    save = await attempt(saveSettings());
  } finally {
    holder.exec('ROLLBACK');
    holder.close();
  }
  const after = await attempt(createOrder());
  const savedAfter = await attempt(saveSettings());
  const alive = soak.server.child.exitCode === null && soak.server.child.signalCode === null;

  const judge = (what: string, o: Outcome) => {
    const inTime = o.ms < BUSY_TIMEOUT_MS + 5000;
    if (o.status === 503) {
      checks.check(inTime, `${what} while locked: 503 after ${fmtMs(o.ms)} ("${o.message ?? ''}")`);
    } else if (o.status === 500) {
      checks.check(
        false,
        `${what} while locked: 500 after ${fmtMs(o.ms)} ("${o.message ?? ''}"): SQLITE_BUSY is not mapped to 503 yet (that mapping is being added to the error handlers separately)`,
      );
    } else {
      checks.check(
        false,
        `${what} while locked: ${o.status || 'no answer'} after ${fmtMs(o.ms)} (${o.message ?? ''}); expected 503`,
      );
    }
  };
  judge('order creation', order);
  judge('admin settings save', save);
  checks.note(
    `a read (/healthz) sent 1 s into the lock answered ${read.status} after ${fmtMs(read.ms)}: better-sqlite3 waits for the lock synchronously, so the whole process stalls for the busy timeout`,
  );
  checks.check(alive, 'the server is still running');
  checks.check(
    after.status === 200,
    `order creation after the release: ${after.status} in ${fmtMs(after.ms)}`,
  );
  checks.check(
    savedAfter.status === 200,
    `settings save after the release: ${savedAfter.status} in ${fmtMs(savedAfter.ms)}`,
  );
  checks.add(
    await verifyFolder(soak.dataDir, { catalogue: [soak.catalogue], paidSessions: soak.paidSessions }),
  );
  return checks.result('Fault: database locked by another process', started);
}
