/** Fault: kill -9 of the server while shoppers are creating and paying orders. */
import { errorTotal, runShoppers } from '../shoppers.js';
import { Checks, type Soak, type StepResult, sleep } from '../step.js';
import { buyableProducts, verifyFolder, waitForCleanUploads, withDb } from '../store-checks.js';

export async function orderKillStep(soak: Soak): Promise<StepResult> {
  const started = performance.now();
  const checks = new Checks();
  const products = await withDb(soak.dataDir, buyableProducts);
  const controller = new AbortController();
  // Every loop checks out, so an order is being created or paid at almost any instant.
  const load = runShoppers({
    port: soak.port,
    shoppers: soak.ci ? 20 : 50,
    durationMs: 60_000,
    checkoutRate: 1,
    browse: false,
    products,
    seed: 11,
    signal: controller.signal,
  });
  const killAt = (soak.ci ? 1500 : 2500) + Math.floor(Math.random() * 1000);
  await sleep(killAt);
  controller.abort(); // from here on, failures are the kill's doing
  const exit = await soak.server.kill();
  const stats = await load;
  soak.paidSessions.push(...stats.paidSessions);
  checks.check(exit.signal === 'SIGKILL', `server killed with SIGKILL after ${killAt} ms of checkouts`);
  checks.note(
    `${stats.ordersCreated} orders created, ${stats.paidSessions.length} confirmed paid, ${stats.afterStop} requests cut off by the kill`,
  );
  checks.check(errorTotal(stats) === 0, `no failed request before the kill (${errorTotal(stats)})`);

  const t = performance.now();
  await soak.restart();
  checks.note(`restarted on the same folder in ${Math.round(performance.now() - t)} ms`);
  await waitForCleanUploads(soak.dataDir);
  checks.add(
    await verifyFolder(soak.dataDir, { catalogue: [soak.catalogue], paidSessions: soak.paidSessions }),
  );

  // And the store sells again (a few checkouts, however slow the machine is).
  const after = await runShoppers({
    port: soak.port,
    shoppers: 5,
    durationMs: 30_000,
    checkoutRate: 1,
    browse: false,
    products,
    seed: 12,
    until: (s) => s.paidSessions.length >= 5,
  });
  soak.paidSessions.push(...after.paidSessions);
  checks.check(
    errorTotal(after) === 0 && after.paidSessions.length > 0,
    `checkouts work after the restart (${after.paidSessions.length} paid, ${errorTotal(after)} failed)`,
  );
  return checks.result('Fault: kill -9 during order creation under load', started);
}
