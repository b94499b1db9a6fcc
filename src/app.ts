import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { Clock } from './core/clock.js';
import type { Db } from './db/database.js';
import type { RevisionReader } from './db/store-revision.js';
import { appLoggerOptions } from './http/app-logger.js';
import { registerCatalogFiles } from './http/catalog-files.js';
import { frameworkErrorHandler, registerErrorHandling } from './http/error-handling.js';
import { registerHealth } from './http/health.js';
import { registerLogsExport } from './http/logs-export.js';
import { registerMedia } from './http/media.js';
import { registerMediaUploads } from './http/media-uploads.js';
import { registerMetrics } from './http/metrics.js';
import { ORDER_PAGE_QUERIES, registerOrderPage } from './http/order-page.js';
import { registerOrdersExport } from './http/orders-export.js';
import { readPageShell } from './http/page-shell.js';
import { registerPublicApiCache } from './http/public-api-cache.js';
import { adminRouteInventory } from './http/require-admin.js';
import { ResponseCache } from './http/response-cache.js';
import { registerSecurity } from './http/security.js';
import { pageHead, registerSeo } from './http/seo.js';
import { registerSpa } from './http/spa.js';
import { registerStripeWebhook } from './http/stripe-webhook.js';
import { registerVitals } from './http/vitals.js';
import { LoginThrottle } from './modules/auth/login-throttle.js';
import { sessionPolicyOf } from './modules/auth/session.js';
import { loadSessionKeys } from './modules/auth/session-keys.js';
import { SecretBox } from './modules/auth/two-factor/secret-box.js';
import { logWordReads, stopWordReads } from './modules/catalogue/snapshot/word-reads.js';
import { clockedRevisionReader } from './modules/discounts/sale-timeline.js';
import { createMailWorker, type MailWorker } from './modules/email/mail-worker.js';
import type { CounterStore } from './modules/limits/counter-store.js';
import { openCounterStore } from './modules/limits/open-counter-store.js';
import { RedisCounterStore } from './modules/limits/redis-counter-store.js';
import { createTelemetryLimits } from './modules/limits/report-limits.js';
import { createRequestLimits, type RequestLimits } from './modules/limits/request-limits.js';
import { LogService } from './modules/logs/log-service.js';
import type { LineSink, LogLevelName } from './modules/logs/log-stream.js';
import type { PaymentGateway } from './modules/payments/payment-gateway.js';
import { BackInStockWorker } from './modules/stock/back-in-stock-worker.js';
import type { FileStorage } from './storage/file-storage.js';
import type { ContextDeps } from './trpc/context.js';
import { registerTrpc, TRPC_PREFIX } from './trpc/http.js';
import { publicQueries } from './trpc/public-caller.js';

export type AppDeps = {
  config: Config;
  db: Db;
  /** The storefront revision, read from the same database (see db/store-revision.ts). */
  revision: RevisionReader;
  storage: FileStorage;
  clock: Clock;
  payments: PaymentGateway;
  /** The built client folder (dist/client); null serves the API only (tests, or `npm run dev` behind Vite). */
  clientDir: string | null;
  /** Shared across app instances in tests that need to see its counts; one per process otherwise. */
  loginThrottle?: LoginThrottle;
  /**
   * Where the sign-in throttle and the per-address limits count (decision 0017). Absent: opened from the
   * configuration (Redis, the PostgreSQL database or memory) and closed with the app.
   */
  counters?: CounterStore;
  /**
   * Where log lines go besides the application log table: standard output at LOG_LEVEL by default, a test's
   * own sink, or nowhere (false). The table gets its entries either way.
   */
  logger?: false | { level: LogLevelName; stream: LineSink };
  /** The application log table's writer; built here when absent (tests pass one to read the table). */
  logService?: LogService;
  /** Per-address limits of public queries and checkouts; the defaults when absent. */
  limits?: RequestLimits;
  /** The order emails' worker; built from the configuration when absent. Either way main.ts starts it. */
  mail?: MailWorker;
};

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The app's email worker (modules/email/mail-worker.ts). It sends nothing until start(): main.ts starts it
     * as it starts the other background work; app close stops it.
     */
    mailWorker: MailWorker;
    /** Queues the back-in-stock emails when nudged (modules/stock/back-in-stock-worker.ts). */
    backInStock: BackInStockWorker;
  }
}

/** Fastify takes a hop count as a function of the hop index. */
function toFastifyTrustProxy(
  value: Config['trustProxy'],
): boolean | string[] | ((addr: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_addr, hop) => hop < value : value;
}

/** The counter store the configuration names, closed with the app; a Redis that cannot be reached stops the start. */
async function openOwnCounters(app: FastifyInstance, deps: AppDeps): Promise<CounterStore> {
  let counters: CounterStore;
  try {
    counters = await openCounterStore({
      config: deps.config,
      db: deps.db,
      redisLog: app.log,
    });
  } catch (error) {
    // The URL may carry a password: named by its variable only.
    throw new Error(
      `cannot reach the Redis server in REDIS_URL: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  app.addHook('onClose', () => counters.close());
  return counters;
}

/** Builds the whole HTTP application without listening; main.ts listens, tests use inject(). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const logService =
    deps.logService ??
    new LogService({
      db: deps.db,
      limits: config.logs,
    });
  const secureTransport = config.publicUrl.startsWith('https://');
  const app = Fastify({
    ...appLoggerOptions({ service: logService, output: deps.logger, defaultLevel: config.logLevel }),
    trustProxy: toFastifyTrustProxy(config.trustProxy),
    // Batched tRPC GETs put every procedure name in the path.
    routerOptions: { maxParamLength: 5000 },
    bodyLimit: 1024 * 1024,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    frameworkErrors: frameworkErrorHandler(secureTransport),
    return503OnClosing: true,
  });

  adminRouteInventory(app, { db: deps.db, clock: deps.clock });
  registerErrorHandling(app, { production: config.isProduction });

  const shell = readPageShell(deps.clientDir);
  const sessionKeys = loadSessionKeys({
    secret: config.session.secret,
    previousSecrets: config.session.previousSecrets,
    dataDir: config.dataDir,
    warn: (m) => app.log.warn(m),
  });
  await registerSecurity(app, {
    config,
    sessionKeys,
    styleHashes: shell?.styleHashes ?? [],
    scriptHashes: shell?.scriptHashes ?? [],
  });

  // The log table's writer flushes its last lines when the app closes. Retention runs in the background,
  // started by main.ts (ops/maintenance.ts).
  app.addHook('onClose', async () => {
    await logService.close();
  });
  const counters = deps.counters ?? (await openOwnCounters(app, deps));
  const onStoreError = (err: unknown) =>
    app.log.warn(
      { err, event: 'limits.store-unavailable' },
      'the shared rate-limit counters cannot be reached: this process limits on its own until they are back',
    );
  const telemetry = createTelemetryLimits({ counters, onStoreError });
  const limits =
    deps.limits ??
    createRequestLimits({
      ...config.requestLimits,
      concurrency: config.database.kind === 'postgres' ? config.database.poolSize : 1,
      counters,
      onStoreError,
    });
  const sessionPolicy = sessionPolicyOf(config);

  // Stopped on close after the requests are done (its pass in flight finishes first), before main closes the db.
  const mail = deps.mail ?? createMailWorker({ db: deps.db, clock: deps.clock, log: app.log, config });
  app.decorate('mailWorker', mail);
  app.addHook('onClose', () => mail.stop());
  // Back-in-stock emails, queued as soon as a change makes a size available again (then sent by `mail`).
  const backInStock = new BackInStockWorker({
    db: deps.db,
    clock: deps.clock,
    log: app.log,
    mail,
    publicUrl: config.publicUrl,
  });
  app.decorate('backInStock', backInStock);
  app.addHook('onClose', () => backInStock.stop());
  // Shoppers' new words are read in a worker on a large SQLite catalogue: stopped before main closes the db.
  logWordReads(deps.db, app.log);
  app.addHook('onClose', () => stopWordReads(deps.db));

  registerHealth(app, {
    db: deps.db,
    dataDir: config.dataDir,
    redisAvailable: counters instanceof RedisCounterStore ? () => counters.available() : undefined,
  });
  registerMetrics(app, { token: config.metricsToken });
  await registerVitals(app, { db: deps.db, clock: deps.clock, limiter: telemetry.vitals });
  registerLogsExport(app, { db: deps.db, clock: deps.clock, policy: sessionPolicy, logs: logService });
  registerOrdersExport(app, { db: deps.db, clock: deps.clock, policy: sessionPolicy });
  await registerStripeWebhook(app, {
    db: deps.db,
    clock: deps.clock,
    payments: deps.payments,
    publicUrl: config.publicUrl,
    mail,
    backInStock,
  });
  await registerMedia(app, { storage: deps.storage });
  await registerCatalogFiles(app, {
    backInStock,
    db: deps.db,
    storage: deps.storage,
    clock: deps.clock,
    policy: sessionPolicy,
  });
  await registerMediaUploads(app, { db: deps.db, storage: deps.storage, clock: deps.clock, config });

  // The storefront follows the clock: at a sale's start or end the revision moves by itself (decision 0037).
  const revision = clockedRevisionReader(deps.revision, deps.db, deps.clock);
  const contextDeps: ContextDeps = {
    db: deps.db,
    revision,
    config,
    clock: deps.clock,
    storage: deps.storage,
    payments: deps.payments,
    logs: logService,
    telemetry,
    limits,
    mail,
    backInStock,
    secrets: new SecretBox(sessionKeys),
    loginThrottle:
      deps.loginThrottle ??
      new LoginThrottle({
        limits: config.loginLimits,
        deviceKeys: sessionKeys,
        now: () => deps.clock.now().getTime(),
        counters,
      }),
  };
  // Public queries repeat: answered from memory until the storefront revision moves. Shoppers' new
  // filters mostly do not: those are kept from their second request on.
  const publicCache = new ResponseCache({
    maxEntries: 2000,
    maxBytes: 24 * 1024 * 1024,
    admitWhenAskedTwice: true,
  });
  await registerTrpc(app, {
    context: contextDeps,
    inScope: (scope) =>
      registerPublicApiCache(scope, {
        prefix: TRPC_PREFIX,
        cache: publicCache,
        revision,
        inProcess: {
          query: (req, charged, revision) =>
            publicQueries(contextDeps, req, { gateCharged: charged, revision }),
          refund: (req, ms) => contextDeps.limits.publicQueries.refund(req.ip, ms),
        },
      }),
  });

  registerSeo(app, { db: deps.db, publicUrl: config.publicUrl });
  const ssrDir = deps.clientDir ? path.join(path.dirname(deps.clientDir), 'ssr') : null;
  await registerOrderPage(app, {
    db: deps.db,
    shell,
    ssrDir,
    query: (req) => publicQueries(contextDeps, req, { private: ORDER_PAGE_QUERIES }),
  });
  await registerSpa(app, {
    clientDir: deps.clientDir,
    shell,
    ssrDir,
    head: (pathname, search) => pageHead(deps.db, config.publicUrl, pathname, search),
    query: (req) => publicQueries(contextDeps, req),
    cache: {
      store: new ResponseCache({ maxEntries: 500, maxBytes: 16 * 1024 * 1024 }),
      revision,
    },
  });
  return app;
}
