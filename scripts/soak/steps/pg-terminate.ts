/**
 * Fault, on PostgreSQL: the server ends every connection of the store while shoppers create and pay orders
 * (pg_terminate_backend on its backends, what a restart, a failover or a managed database's maintenance
 * does to them, those inside a transaction among them). The soak's other steps run the store on SQLite;
 * this one starts the production build of its own on a throwaway PostgreSQL database (TEST_DATABASE_URL's
 * server, else 127.0.0.1:5432) with the demo catalogue. Checks, from the server's answers and the database:
 * the process lives through it; a request met by the fault is a 503 with Retry-After, never a 500 or a
 * dropped connection; /readyz is 200 again and every request after succeeds, with no restart; every order a
 * shopper was told of is there and every confirmed payment is paid, and an order no shopper was told of
 * can only be one whose answer was lost with its connection (pending, never paid).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openPostgres } from '../../../src/db/postgres/connect-postgres.js';
import { createThrowawayDatabase, type ThrowawayDatabase } from '../../../src/test-support/postgres.js';
import { freePort } from '../../launcher/server.js';
import { send, trpcData, trpcMutation } from '../http.js';
import { type RunningServer, startSoakServer } from '../server.js';
import { type LoadStats, type Product, runShoppers } from '../shoppers.js';
import { Checks, type Soak, type StepResult, sleep } from '../step.js';
import { firstOfList } from '../store-checks.js';

const TERMINATIONS = 3;
const SHOPPER = {
  email: 'soak@example.com',
  name: 'Soak Shopper',
  address: { line1: '1 Test Street', city: 'Springfield', postalCode: '12345', country: 'US' },
};

async function until(withinMs: number, check: () => Promise<boolean>): Promise<number | null> {
  const t = performance.now();
  while (performance.now() - t < withinMs) {
    if (await check().catch(() => false)) return performance.now() - t;
    await sleep(100);
  }
  return null;
}

function lastLines(text: string, count: number): string {
  return text.trimEnd().split('\n').slice(-count).join('\n');
}

function describeFailures(stats: LoadStats): string {
  const byStatus = Object.entries(stats.statuses).map(([status, n]) => `${n} × ${status}`);
  if (stats.errors.network > 0) byStatus.push(`${stats.errors.network} without an answer`);
  return byStatus.length > 0 ? byStatus.join(', ') : 'none';
}

export async function pgTerminateStep(soak: Soak): Promise<StepResult> {
  const started = performance.now();
  const checks = new Checks();
  const name = 'Fault: PostgreSQL ends the store’s connections under load (PostgreSQL run)';
  let database: ThrowawayDatabase;
  try {
    database = await createThrowawayDatabase('store_soak');
  } catch (error) {
    checks.skip(`no PostgreSQL server to run on (${(error as Error).message})`);
    return checks.result(name, started);
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'store-soak-pg-'));
  const handle = openPostgres(database.url, 2);
  const port = await freePort();
  let server: RunningServer | null = null;
  try {
    server = await startSoakServer({
      dataDir,
      port,
      env: {
        DATABASE_URL: database.url,
        DEMO_CATALOGUE: 'true',
        SESSION_SECRET: randomBytes(32).toString('base64url'),
      },
    });
    const store = server;
    // Products that sell over and over: no tracked stock to run out.
    const rows = await handle.db
      .selectFrom('products')
      .select(['id', 'sizes', 'colors'])
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('size_stock').select('product_id').whereRef('product_id', '=', 'products.id'))),
      )
      .execute();
    // A product with colours is bought in its first.
    const products: Product[] = rows.map((r) => ({
      id: r.id,
      size: firstOfList(r.sizes),
      colour: firstOfList(r.colors),
    }));
    if (products.length === 0) throw new Error('the demo catalogue has no product to buy');

    const durationMs = soak.ci ? 6000 : 20_000;
    const load = runShoppers({
      port,
      shoppers: soak.ci ? 20 : 50,
      durationMs,
      checkoutRate: 0.5,
      products,
      seed: 23,
    });
    await sleep(durationMs / 3);
    let ended = 0;
    for (let i = 0; i < TERMINATIONS; i++) {
      const result = await sql<{ ended: boolean }>`
        SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name = 'storefront'`.execute(
        handle.db,
      );
      ended += result.rows.filter((r) => r.ended).length;
      await sleep(300);
    }
    const stats = await load;
    checks.note(
      `${stats.requests} requests from ${soak.ci ? 20 : 50} shoppers over ${durationMs / 1000} s; ${TERMINATIONS} terminations of the store's backends ${durationMs / 3000} s in ended ${ended} connections`,
    );
    checks.note(
      `${stats.ordersCreated} orders created, ${stats.paidSessions.length} confirmed paid; failed requests: ${describeFailures(stats)}`,
    );
    checks.check(store.running(), 'the server is still running');
    const unhandled = /Unhandled 'error' event|uncaught/i.test(store.output());
    checks.check(!unhandled, 'no unhandled error in its output');
    // A crash is only worth its report with the server's last words, which CI keeps nowhere else.
    if (unhandled || !store.running())
      checks.note(`the server's last output:\n${lastLines(store.output(), 40)}`);
    const unclean = Object.entries(stats.statuses).filter(([status]) => status !== '503');
    checks.check(
      unclean.length === 0 && stats.errors.network === 0 && stats.errors.other === 0,
      'every request met by the fault answered 503 (busy, try again) or succeeded',
    );
    checks.check(
      stats.withoutRetryAfter === 0,
      `every 503 carried Retry-After (${stats.withoutRetryAfter} did not)`,
    );

    const readyIn = await until(30_000, async () => (await send({ port, path: '/readyz' })).status === 200);
    checks.check(
      readyIn !== null,
      `/readyz answered 200 again${readyIn === null ? ' (not within 30 s)' : ''}`,
    );
    const after: string[] = [];
    const [product] = products as [Product];
    for (let i = 0; i < 5; i++) {
      const lines = [{ productId: product.id, colour: product.colour, size: product.size, quantity: 1 }];
      const created = await send({ port, ...trpcMutation('checkout.createSession', { lines }) }).catch(
        () => null,
      );
      if (created?.status !== 200) {
        after.push(`create order ${created?.status ?? 'without an answer'}`);
        continue;
      }
      const session = trpcData<{ url: string }>(created);
      const sessionId = new URL(session.url, 'http://store').searchParams.get('session_id') ?? '';
      const paid = await send({
        port,
        ...trpcMutation('checkout.completeTestPayment', { sessionId, ...SHOPPER }),
      }).catch(() => null);
      if (paid?.status === 200) stats.paidSessions.push(sessionId);
      else after.push(`payment ${paid?.status ?? 'without an answer'}`);
    }
    checks.check(
      after.length === 0,
      `5 checkouts after the fault all succeeded${after.length ? ` (not: ${after.join(', ')})` : ''}`,
    );

    const orders = await handle.db.selectFrom('orders').select(['status', 'stripe_session_id']).execute();
    const bySession = new Map(orders.map((o) => [o.stripe_session_id, o.status]));
    const unpaid = stats.paidSessions.filter((s) => bySession.get(s) !== 'paid');
    checks.check(
      unpaid.length === 0,
      `every payment a shopper saw confirmed is a paid order (${stats.paidSessions.length}${unpaid.length ? `; not: ${unpaid.length}` : ''})`,
    );
    const told = stats.ordersCreated + 5 - after.filter((a) => a.startsWith('create')).length;
    const untold = orders.length - told;
    const refused = stats.statuses[503] ?? 0;
    checks.check(
      untold >= 0 && untold <= refused,
      `no order lost or doubled: ${orders.length} orders in the database, ${told} told to shoppers${untold > 0 ? ` (${untold} whose answer was lost with its connection, pending)` : ''}`,
    );
  } finally {
    await server?.stop();
    await handle.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return checks.result(name, started);
}
