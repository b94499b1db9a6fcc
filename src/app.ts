import { randomUUID } from 'node:crypto';
import path from 'node:path';
import helmet from '@fastify/helmet';
import secureSession from '@fastify/secure-session';
import { type FastifyTRPCPluginOptions, fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import type { Config } from './config.js';
import type { Clock } from './core/clock.js';
import {
  DATABASE_BUSY_MESSAGE,
  isDatabaseBusy,
  isStorageFull,
  STORAGE_FULL_MESSAGE,
} from './core/failures.js';
import type { Db } from './db/database.js';
import type { RevisionReader } from './db/store-revision.js';
import { AccessLog } from './http/access-log.js';
import { registerCatalogFiles } from './http/catalog-files.js';
import { registerHealth } from './http/health.js';
import { registerLogsExport } from './http/logs-export.js';
import { registerMedia } from './http/media.js';
import { registerMediaUploads } from './http/media-uploads.js';
import { readPageShell } from './http/page-shell.js';
import { registerPublicApiCache } from './http/public-api-cache.js';
import { ResponseCache } from './http/response-cache.js';
import { registerSameOriginGuard } from './http/same-origin.js';
import { pageHead, registerSeo } from './http/seo.js';
import { registerSpa } from './http/spa.js';
import { registerStripeWebhook } from './http/stripe-webhook.js';
import { registerVitals } from './http/vitals.js';
import { registerDeviceCookieWriter } from './modules/auth/device-cookie-http.js';
import { LoginThrottle } from './modules/auth/login-throttle.js';
import { SESSION_COOKIE } from './modules/auth/session.js';
import { loadSessionKeys } from './modules/auth/session-keys.js';
import type { PaymentGateway } from './modules/checkout/payment-gateway.js';
import { createRequestLimits, type RequestLimits } from './modules/limits/request-limits.js';
import { LogService } from './modules/logs/log-service.js';
import {
  createLogStream,
  type LineSink,
  type LogLevelName,
  levelNumber,
  loggerLevel,
  PINO_LEVELS,
} from './modules/logs/log-stream.js';
import { startPeriodic } from './modules/logs/periodic.js';
import { expireAbandonedDemoOrders } from './modules/orders/abandoned-orders.js';
import { createTelemetryLimits } from './modules/telemetry/rate-limiter.js';
import { pruneVitals } from './modules/telemetry/vitals.repository.js';
import type { FileStorage } from './storage/file-storage.js';
import { type ContextDeps, createContextFactory } from './trpc/context.js';
import { publicQueries } from './trpc/public-caller.js';
import { retryAfterMeta } from './trpc/retry-after.js';
import { type AppRouter, appRouter } from './trpc/router.js';

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
   * Where log lines go besides the application log table: standard output at LOG_LEVEL by default, a test's
   * own sink, or nowhere (false). The table gets its entries either way.
   */
  logger?: false | { level: LogLevelName; stream: LineSink };
  /** The application log table's writer; built here when absent (tests pass one to read the table). */
  logService?: LogService;
  /** Per-address limits of public queries and checkouts; the defaults when absent. */
  limits?: RequestLimits;
};

/** The response header that carries the request id (the same id as the log lines and error bodies). */
const REQUEST_ID_HEADER = 'x-request-id';

/** Never in standard output: pino replaces these with [redacted] (the log table redacts on its own). */
const REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  'password',
  '*.password',
  'cookie',
  '*.cookie',
  'token',
  '*.token',
  'secret',
  '*.secret',
];

/** What helmet would add, for the few answers Fastify gives before any hook (see frameworkErrors). */
function bareSecurityHeaders(secure: boolean): Record<string, string> {
  return {
    'content-security-policy':
      "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'SAMEORIGIN',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'cross-origin-resource-policy': 'same-origin',
    ...(secure ? { 'strict-transport-security': 'max-age=15552000' } : {}),
  };
}

/** Fastify takes a hop count as a function of the hop index. */
function toFastifyTrustProxy(
  value: Config['trustProxy'],
): boolean | string[] | ((addr: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_addr, hop) => hop < value : value;
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
  const outputLevel: LogLevelName = deps.logger ? deps.logger.level : config.logLevel;
  const logStream = createLogStream({
    service: logService,
    output: deps.logger === false ? null : (deps.logger?.stream ?? process.stdout),
    outputLevel,
  });
  const secureTransport = config.publicUrl.startsWith('https://');
  const app = Fastify({
    // One logger feeds standard output and the application log table (see modules/logs/log-stream.ts).
    logger: {
      level: deps.logger === false ? 'info' : loggerLevel(outputLevel),
      stream: logStream,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    },
    trustProxy: toFastifyTrustProxy(config.trustProxy),
    // Batched tRPC GETs put every procedure name in the path.
    routerOptions: { maxParamLength: 5000 },
    bodyLimit: 1024 * 1024,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // A URL Fastify cannot route (undecodable, or a parameter past maxParamLength) is answered before any
    // hook runs, so helmet never sees it: it gets the same protective headers here, and no echo of the URL.
    frameworkErrors: (error, req, reply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      (reply as FastifyReply)
        .headers(bareSecurityHeaders(secureTransport))
        .header(REQUEST_ID_HEADER, req.id)
        .code(tooLong ? 414 : 400)
        .send({
          error: tooLong ? 'URI Too Long' : 'Bad Request',
          message: tooLong ? 'The address is too long.' : 'The address is not a valid URL.',
          requestId: req.id,
        });
    },
    return503OnClosing: true,
    logController: new AccessLog(deps.logger !== false && levelNumber(outputLevel) <= PINO_LEVELS.info),
  });

  app.setErrorHandler((error: FastifyError, req, reply) => {
    // SQLITE_BUSY after the busy timeout: another connection (CLI, backup) held the write lock. The request
    // was fine and a retry a moment later works, so it is a 503 that says so (tRPC: see trpc/init.ts).
    if (isDatabaseBusy(error)) {
      req.log.warn({ err: error }, 'database busy');
      return reply.code(503).header('retry-after', '2').send({
        error: 'Service Unavailable',
        message: DATABASE_BUSY_MESSAGE,
        requestId: req.id,
      });
    }
    if (isStorageFull(error)) {
      req.log.error({ err: error }, 'disk full');
      return reply
        .code(507)
        .send({ error: 'Insufficient Storage', message: STORAGE_FULL_MESSAGE, requestId: req.id });
    }
    const status =
      error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) {
      req.log.error({ err: error }, 'request failed');
      return reply.code(status).send({
        error: 'Internal Server Error',
        message: config.isProduction ? 'Something went wrong on our side. Please try again.' : error.message,
        requestId: req.id,
      });
    }
    return reply.code(status).send({ error: error.name, message: error.message, requestId: req.id });
  });

  // Every answer names its request, so an operator can find its log lines from any answer, including pages,
  // files and 304s that have no error body to carry the id.
  // A callback hook: it runs on every request, cached answers included, and needs no promise of its own.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header(REQUEST_ID_HEADER, req.id);
    done();
  });

  const shell = readPageShell(deps.clientDir);
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", ...(shell?.styleHashes ?? [])],
        imgSrc: ["'self'", 'data:', 'https:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        ...(secureTransport ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // Product photos may come from other hosts (URL media); COEP would block them.
    crossOriginEmbedderPolicy: false,
    hsts: secureTransport ? { maxAge: 15552000, includeSubDomains: false } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });

  const sessionKeys = loadSessionKeys({
    secret: config.session.secret,
    previousSecrets: config.session.previousSecrets,
    dataDir: config.dataDir,
    warn: (m) => app.log.warn(m),
  });
  await app.register(secureSession, {
    key: sessionKeys,
    cookieName: SESSION_COOKIE,
    expiry: Math.ceil(config.session.ttlMs / 1000),
    cookie: {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: config.session.secureCookie,
      maxAge: Math.ceil(config.session.ttlMs / 1000),
    },
  });
  registerDeviceCookieWriter(app, { secure: config.session.secureCookie });
  registerSameOriginGuard(app, {
    publicUrl: config.publicUrl,
    production: config.isProduction,
    exemptRoutes: ['/api/stripe/webhook'],
  });

  // Retention of the log and the vitals, and the expiry of abandoned demo checkouts, run in the background,
  // never in a request.
  const stopRetention = startPeriodic(
    async () => {
      const now = deps.clock.now();
      await logService.prune(now);
      await pruneVitals(deps.db, now);
      const expired = await expireAbandonedDemoOrders(deps.db, now);
      if (expired > 0)
        app.log.info({ event: 'orders.expired', count: expired }, 'abandoned demo checkouts expired');
    },
    {
      intervalMs: 10 * 60_000,
      firstDelayMs: 30_000,
      onError: (err) => app.log.warn({ err }, 'log retention failed'),
    },
  );
  app.addHook('onClose', async () => {
    stopRetention();
    await logService.close();
  });
  const telemetry = createTelemetryLimits();
  const limits = deps.limits ?? createRequestLimits(config.requestLimits);
  const sessionPolicy = { ttlMs: config.session.ttlMs, idleMs: config.session.idleMs };

  registerHealth(app, { db: deps.db, dataDir: config.dataDir });
  await registerVitals(app, { db: deps.db, clock: deps.clock, limiter: telemetry.vitals });
  registerLogsExport(app, { db: deps.db, clock: deps.clock, policy: sessionPolicy, logs: logService });
  await registerStripeWebhook(app, { db: deps.db, clock: deps.clock, payments: deps.payments });
  await registerMedia(app, { mediaRoot: path.join(config.dataDir, 'media') });
  await registerCatalogFiles(app, {
    db: deps.db,
    storage: deps.storage,
    clock: deps.clock,
    policy: sessionPolicy,
  });
  await registerMediaUploads(app, { db: deps.db, storage: deps.storage, clock: deps.clock, config });

  const contextDeps: ContextDeps = {
    db: deps.db,
    config,
    clock: deps.clock,
    storage: deps.storage,
    payments: deps.payments,
    logs: logService,
    telemetry,
    limits,
    loginThrottle:
      deps.loginThrottle ??
      new LoginThrottle({
        limits: config.loginLimits,
        deviceKeys: sessionKeys,
        now: () => deps.clock.now().getTime(),
      }),
  };
  const createContext = createContextFactory(contextDeps);
  const publicCache = new ResponseCache({ maxEntries: 2000, maxBytes: 24 * 1024 * 1024 });
  await app.register(async (scope) => {
    registerPublicApiCache(scope, { prefix: '/api/trpc', cache: publicCache, revision: deps.revision });
    await scope.register(fastifyTRPCPlugin, {
      prefix: '/api/trpc',
      trpcOptions: {
        router: appRouter,
        createContext,
        maxBatchSize: 10,
        responseMeta: retryAfterMeta,
        onError({ error, path: procedure, req }) {
          if (error.code === 'INTERNAL_SERVER_ERROR') {
            req.log.error({ err: error.cause ?? error, procedure }, 'procedure failed');
          }
        },
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>);
  });

  registerSeo(app, { db: deps.db, publicUrl: config.publicUrl });
  await registerSpa(app, {
    clientDir: deps.clientDir,
    shell,
    ssrDir: deps.clientDir ? path.join(path.dirname(deps.clientDir), 'ssr') : null,
    head: (pathname) => pageHead(deps.db, config.publicUrl, pathname),
    query: (req) => publicQueries(contextDeps, req),
    cache: {
      store: new ResponseCache({ maxEntries: 500, maxBytes: 16 * 1024 * 1024 }),
      revision: deps.revision,
    },
  });
  return app;
}
