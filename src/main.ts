import { buildApp } from './app.js';
import { clientDistDir, demoDir } from './app-root.js';
import { ConfigError, loadConfig } from './config.js';
import { systemClock } from './core/clock.js';
import { nodeRefusal } from './core/node-support.js';
import { openStoreDatabase } from './db/store-database.js';
import { ensureFirstAdmin } from './modules/auth/first-admin.js';
import { loadSessionKeys } from './modules/auth/session-keys.js';
import { SecretBox } from './modules/auth/two-factor/secret-box.js';
import { resealWithCurrentKey } from './modules/auth/two-factor/two-factor.service.js';
import { startSummaryKeeper } from './modules/dashboard/summary-keeper.js';
import { loadDemoCatalogueIfEmpty } from './modules/demo/demo-loader.js';
import { LogService } from './modules/logs/log-service.js';
import { snapshotUploads } from './modules/media/orphan-sweep.js';
import { createPayments } from './modules/payments/payments.js';
import { startMaintenance } from './ops/maintenance.js';
import { runOrphanSweep } from './ops/orphan-sweep-job.js';
import { startScheduledBackups } from './ops/scheduled-backups.js';
import { claimDataDir } from './ops/start-up.js';
import { startUpBanner } from './ops/start-up-banner.js';
import { openFileStorage } from './storage/open-file-storage.js';

async function main(): Promise<void> {
  const refusal = nodeRefusal();
  if (refusal) {
    console.error(refusal);
    process.exit(1);
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  // Held until exit: restore refuses while it is (ops/data-lock.ts); finishes a restore a crash interrupted.
  const dataLock = await claimDataDir(config.dataDir, (note) => console.log(note));
  const handle = await openStoreDatabase(config);
  const storage = await openFileStorage(config);
  // Listed before the server takes requests, so the sweep after listen never sees an upload in progress.
  const uploads = await snapshotUploads(storage);
  const demo = config.loadDemoCatalogue
    ? await loadDemoCatalogueIfEmpty({ db: handle.db, storage, demoDir, clock: systemClock })
    : null;

  const firstAdmin = await ensureFirstAdmin({
    db: handle.db,
    config,
    clock: systemClock,
    freshDemo: demo?.loaded ?? false,
  });

  const payments = createPayments(config);
  const logService = new LogService({ db: handle.db, limits: config.logs });
  const app = await buildApp({
    config,
    payments,
    db: handle.db,
    revision: handle.revision,
    storage,
    clock: systemClock,
    clientDir: clientDistDir,
    logService,
  });

  // Sealed with the current session key, so an older one can be dropped without locking an admin out of
  // their second factor. Worth a warning when it fails, not a refusal to start: a sign-in reseals too.
  try {
    const keys = loadSessionKeys({
      secret: config.session.secret,
      previousSecrets: config.session.previousSecrets,
      dataDir: config.dataDir,
    });
    const resealed = await resealWithCurrentKey(handle.db, new SecretBox(keys));
    if (resealed > 0) {
      app.log.info(
        { event: 'auth.totp_resealed', count: resealed },
        'two-factor secrets sealed with the current key',
      );
    }
  } catch (err) {
    app.log.warn({ err, event: 'auth.totp_reseal_failed' }, 'two-factor secrets could not be sealed again');
  }

  // Background work is started here, not by buildApp: an app built by a test or a tool runs no timers.
  const stopMaintenance = startMaintenance({
    db: handle.db,
    clock: systemClock,
    logs: logService,
    log: app.log,
    payments,
    publicUrl: config.publicUrl,
    auditRetentionDays: config.audit.retentionDays,
  });
  // The owner's dashboard's summaries follow the orders within seconds, not at the owner's next read.
  const stopSummaryKeeper = startSummaryKeeper({ db: handle.db, log: app.log });
  // Sends what waited in the outbox (a restart, or SMTP_URL newly set), then on each nudge and every 30 s.
  const stopMail = app.mailWorker.start();
  const backups = startScheduledBackups({
    dataDir: config.dataDir,
    settings: config.backups,
    log: app.log,
    db: handle.db,
    database: config.database,
    tools: { binDir: config.postgresBinDir },
    storage,
  });
  const sweepAbort = new AbortController();
  let sweep: Promise<unknown> = Promise.resolve();
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    timer.unref();
    try {
      sweepAbort.abort();
      await stopMaintenance();
      stopSummaryKeeper();
      // An email in flight finishes (its outcome recorded) before the connections close.
      await stopMail();
      // Fastify closes the connections that are idle when the close starts; a keep-alive connection whose
      // request was still running would hold the close open for the keep-alive timeout (72 s), past the
      // 10 s above, so each is closed as soon as its last response is out.
      const closeIdle = setInterval(() => app.server.closeIdleConnections(), 100);
      await app.close().finally(() => clearInterval(closeIdle));
      await sweep;
      await backups.stop();
      await handle.close();
      dataLock.release();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  const address = await app.listen({ port: config.port, host: config.host });
  // Files a crash left between writing an upload and committing its row (see orphan-sweep.ts).
  sweep = runOrphanSweep({
    db: handle.db,
    snapshot: uploads,
    now: new Date(),
    log: app.log,
    signal: sweepAbort.signal,
  }).catch((error: unknown) => app.log.warn({ err: error }, 'orphan upload sweep failed'));
  const port = app.server.address();
  console.log(
    startUpBanner({
      config,
      port: typeof port === 'object' && port ? port.port : config.port,
      demoProducts: demo?.loaded ? demo.products : null,
      firstAdmin,
      cwd: process.cwd(),
    }),
  );
  app.log.debug({ address }, 'listening');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `Failed to start: ${error.message}` : error);
  process.exit(1);
});
