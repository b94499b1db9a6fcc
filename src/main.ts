import path from 'node:path';
import { buildApp } from './app.js';
import { clientDistDir, demoDir } from './app-root.js';
import { ConfigError, loadConfig } from './config.js';
import { databaseFile, openDatabase } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { revisionReader } from './db/store-revision.js';
import { ensureFirstAdmin, type FirstAdminResult } from './modules/auth/first-admin.js';
import { createPayments } from './modules/checkout/payments.js';
import { loadDemoCatalogueIfEmpty } from './modules/demo/demo-loader.js';
import { LocalFileStorage } from './storage/local-file-storage.js';
import { systemClock } from './trpc/context.js';

async function main(): Promise<void> {
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

  const handle = openDatabase(databaseFile(config.dataDir));
  await migrateToLatest(handle.db);
  const storage = new LocalFileStorage(config.dataDir);
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
  const app = await buildApp({
    config,
    payments: payments.gateway,
    stripe: payments.stripe,
    db: handle.db,
    revision: revisionReader(handle.sqlite),
    storage,
    clock: systemClock,
    clientDir: clientDistDir,
  });

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
      await app.close();
      await handle.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  const address = await app.listen({ port: config.port, host: config.host });
  const port = app.server.address();
  const actualPort = typeof port === 'object' && port ? port.port : config.port;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const lines = [
    '',
    `  Store is running at http://${shownHost}:${actualPort}/`,
    `  Data folder: ${path.relative(process.cwd(), config.dataDir) || '.'} (${config.dataDir})`,
    demo?.loaded ? `  Loaded the demo catalogue: ${demo.products} products.` : null,
    ...adminHint(firstAdmin, `http://${shownHost}:${actualPort}/admin`),
    config.host === '127.0.0.1' || config.host === 'localhost'
      ? '  Only this machine can reach it; set HOST=0.0.0.0 to listen on every interface.'
      : null,
    config.stripe
      ? `  Payments: Stripe (${config.stripe.secretKey.startsWith('sk_live_') || config.stripe.secretKey.startsWith('rk_live_') ? 'live' : 'test'} mode)${config.stripe.webhookSecret ? '' : ' - STRIPE_WEBHOOK_SECRET is not set: orders will not learn of payments'}`
      : '  Payments: demo mode (no STRIPE_SECRET_KEY): checkout completes without moving money.',
    '  Press Ctrl+C to stop.',
    '',
  ].filter((l): l is string => l !== null);
  console.log(lines.join('\n'));
  app.log.debug({ address }, 'listening');
}

function adminHint(result: FirstAdminResult, adminUrl: string): string[] {
  switch (result.kind) {
    case 'demo':
      return [
        '',
        `  Admin: sign in at ${adminUrl}`,
        `    email:    ${result.email}`,
        `    password: ${result.password}`,
        '  This password is shown only now. Change it under Profile, or create your own account with',
        '    npm run admin -- create you@example.com',
        '',
      ];
    case 'from-env':
      return [`  Created the admin account ${result.email} from ADMIN_EMAIL; sign in at ${adminUrl}`];
    case 'none':
      return [
        '',
        `  No admin account yet. Create one, then sign in at ${adminUrl}:`,
        '    npm run admin -- create you@example.com',
        '',
      ];
    default:
      return [];
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `Failed to start: ${error.message}` : error);
  process.exit(1);
});
