import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../app.js';
import { demoDir } from '../app-root.js';
import { type Config, loadConfig } from '../config.js';
import type { Clock } from '../core/clock.js';
import { type DatabaseHandle, databaseFile, openDatabase } from '../db/connect.js';
import type { AdminRole, Db } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { openPostgresStore, type StoreDatabase } from '../db/store-database.js';
import type { RevisionReader } from '../db/store-revision.js';
import { revisionReader } from '../db/store-revision.js';
import { insertAdmin } from '../modules/auth/admins.repository.js';
import { LoginThrottle } from '../modules/auth/login-throttle.js';
import { hashPassword } from '../modules/auth/password.js';
import { memorySession } from '../modules/auth/session.js';
import { SecretBox } from '../modules/auth/two-factor/secret-box.js';
import { loadDemoCatalogueIfEmpty } from '../modules/demo/demo-loader.js';
import { countingOutbox, type MailWorker } from '../modules/email/mail-worker.js';
import type { CounterStore } from '../modules/limits/counter-store.js';
import { createTelemetryLimits } from '../modules/limits/report-limits.js';
import { createRequestLimits, type RequestLimits } from '../modules/limits/request-limits.js';
import { LogService } from '../modules/logs/log-service.js';
import { DemoGateway } from '../modules/payments/demo-gateway.js';
import type { PaymentGateway } from '../modules/payments/payment-gateway.js';
import { countingStockWatch } from '../modules/stock/back-in-stock-worker.js';
import type { FileStorage } from '../storage/file-storage.js';
import { LocalFileStorage } from '../storage/local-file-storage.js';
import type { InnerContext } from '../trpc/context.js';
import { createCallerFactory } from '../trpc/init.js';
import { appRouter } from '../trpc/router.js';
import { copyMigratedSqlite } from './migrated-templates.js';
import { takeMigratedPostgres } from './postgres-pool.js';

const createCaller = createCallerFactory(appRouter);

export const fixedClock: Clock = { now: () => new Date('2026-11-22T10:00:00.000Z') };

/**
 * What a session adds to an account in the admin identities tests build by hand: no two-factor, and
 * confirmed at the fixed clock's now (so actions that need a fresh confirmation pass at that time).
 */
export const SESSION_FACTS = {
  twoFactor: false,
  confirmedAt: '2026-11-22T10:00:00.000Z',
  sessionId: 'test-session-id-0000000',
} as const;

export type TestStore = {
  dir: string;
  config: Config;
  /** Which engine this run tests: TEST_DATABASE=postgres runs the suite on PostgreSQL. */
  engine: 'sqlite' | 'postgres';
  /** The PostgreSQL database's URL, for a test's own connection (null on SQLite: the file is in `dir`). */
  postgresUrl: string | null;
  /**
   * The database as the configuration would name it, for the operations commands (backup, restore), which
   * open their own connections: the SQLite file in `dir`, or the throwaway PostgreSQL database's URL.
   */
  database: Config['database'];
  /**
   * The database; on PostgreSQL its SQLite-only parts (the file's connections, lock waits) throw, so a test
   * of SQLite's own behaviour says so rather than passing by accident.
   */
  handle: DatabaseHandle;
  revision: RevisionReader;
  /** The data folder's LocalFileStorage, or the storage the test passed (an S3 bucket). */
  storage: FileStorage;
  context(overrides?: Partial<InnerContext>): InnerContext;
  caller(overrides?: Partial<InnerContext>): ReturnType<typeof createCaller>;
  /**
   * Takes the database away under the store, as a deleted file or a dropped database would: on SQLite its
   * connections are closed, on PostgreSQL the database is dropped (its connections ended). cleanup() still works.
   */
  loseDatabase(): Promise<void>;
  cleanup(): Promise<void>;
};

/**
 * A real, migrated database of the engine under test (see openTestDatabase) with its own temporary data
 * folder; optionally with the demo catalogue, and with another file storage than the folder (an S3 bucket
 * from test-support/s3.ts).
 */
export async function createTestStore(
  opts: {
    demo?: boolean;
    env?: Record<string, string>;
    /** How long a write waits for a lock another connection holds (the store's own default otherwise). */
    lockWaitMs?: number;
    /** Another file storage than the data folder (an S3 bucket from test-support/s3.ts). */
    storage?: FileStorage;
  } = {},
): Promise<TestStore> {
  const dir = mkdtempSync(path.join(tmpdir(), 'store-test-'));
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, LOG_LEVEL: 'silent', ...opts.env });
  const { handle, revision, database, close, lose, url } = await openTestDatabase(dir, opts.lockWaitMs);
  const storage = opts.storage ?? new LocalFileStorage(dir);
  if (opts.demo) await loadDemoCatalogueIfEmpty({ db: handle.db, storage, demoDir, clock: fixedClock });
  const secrets = new SecretBox([randomBytes(32)]);
  const context = (overrides: Partial<InnerContext> = {}): InnerContext => ({
    db: handle.db,
    config,
    clock: fixedClock,
    storage,
    loginThrottle: new LoginThrottle(),
    secrets,
    payments: new DemoGateway(),
    log: pino({ level: 'silent' }),
    logs: new LogService({ db: handle.db, limits: config.logs }),
    telemetry: createTelemetryLimits(),
    // Real gate (one call at a time, a turn each), without a budget: the gate's own tests set one.
    limits: createRequestLimits({ unlimited: true }),
    // Counts nudges and sends nothing; a delivery test passes a MailWorker of its own.
    mail: countingOutbox(),
    // Counts nudges and queues nothing; the back-in-stock tests call the worker themselves.
    backInStock: countingStockWatch(),
    admin: null,
    session: memorySession(),
    ip: '203.0.113.7',
    requestId: 'test-request',
    // No response cache stands in front of a direct call.
    keepOutOfResponseCaches: () => undefined,
    ...overrides,
  });
  return {
    dir,
    config,
    engine: testEngine,
    postgresUrl: url,
    database,
    handle,
    revision,
    storage,
    context,
    caller: (overrides) => createCaller(context(overrides)),
    loseDatabase: lose,
    async cleanup() {
      await close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const testEngine: 'sqlite' | 'postgres' =
  process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';

function sqliteOnly(db: DatabaseHandle['db']): DatabaseHandle {
  const refuse = (): never => {
    throw new Error('SQLite only: this part of the test checks what the SQLite file does');
  };
  return {
    db,
    get sqlite() {
      return refuse();
    },
    get reader() {
      return refuse();
    },
    get lockWait() {
      return refuse();
    },
    close: async () => undefined,
  };
}

/** A migrated database of the engine under test: a SQLite file in `dir`, or a throwaway PostgreSQL one. */
async function openTestDatabase(
  dir: string,
  lockWaitMs: number | undefined,
): Promise<{
  handle: DatabaseHandle;
  revision: RevisionReader;
  close(): Promise<void>;
  lose(): Promise<void>;
  url: string | null;
  database: Config['database'];
}> {
  if (testEngine === 'sqlite') {
    await copyMigratedSqlite(databaseFile(dir));
    const handle = openDatabase(databaseFile(dir));
    if (lockWaitMs !== undefined) handle.lockWait.ms = lockWaitMs;
    await migrateToLatest(handle.db);
    return {
      handle,
      revision: revisionReader(handle.sqlite),
      url: null,
      database: { kind: 'sqlite' },
      close: () => handle.close(),
      async lose() {
        handle.sqlite.close();
        handle.reader.close();
      },
    };
  }
  const database = await takeMigratedPostgres();
  let store: StoreDatabase;
  try {
    store = await openPostgresStore(database.url, 4, { lockWaitMs });
  } catch (error) {
    await database.drop();
    throw error;
  }
  return {
    handle: sqliteOnly(store.db),
    revision: store.revision,
    database: { kind: 'postgres', url: database.url, poolSize: 4 },
    async close() {
      await store.close();
      await database.drop();
    },
    lose: () => database.lose(),
    url: database.url,
  };
}

export async function buildTestApp(
  store: TestStore,
  opts: {
    clientDir?: string | null;
    clock?: Clock;
    config?: Config;
    logLines?: string[];
    payments?: PaymentGateway;
    /** Pass one to flush it and read the log table from the test. */
    logService?: LogService;
    /** The app's per-address limits; none by default (the limits' own tests pass them). */
    limits?: RequestLimits;
    /** Where the sign-in throttle and the limits count; the app's own memory by default. */
    counters?: CounterStore;
    /** The app's mail worker; built from the configuration (and not started) by default. */
    mail?: MailWorker;
    /** The store's database seen through a plugin, say (the store's own by default). */
    db?: Db;
    /** The storefront revision's reader (the store's own by default). */
    revision?: RevisionReader;
  } = {},
) {
  const lines = opts.logLines;
  return buildApp({
    config: opts.config ?? store.config,
    payments: opts.payments ?? new DemoGateway(),
    db: opts.db ?? store.handle.db,
    revision: opts.revision ?? store.revision,
    storage: store.storage,
    clock: opts.clock ?? fixedClock,
    clientDir: opts.clientDir ?? null,
    logger: lines ? { level: 'info', stream: { write: (line: string) => void lines.push(line) } } : false,
    logService: opts.logService,
    limits: opts.limits ?? createRequestLimits({ unlimited: true }),
    counters: opts.counters,
    mail: opts.mail,
  });
}

/** A clock the test moves by hand. */
export function manualClock(start = '2026-11-22T10:00:00.000Z'): Clock & { advance(ms: number): void } {
  let t = new Date(start).getTime();
  return {
    now: () => new Date(t),
    advance(ms: number) {
      t += ms;
    },
  };
}

/**
 * A clock a second later at every reading, so that what a test does in order is recorded in order (an
 * order's timeline, the outbox) instead of at one frozen instant.
 */
export function tickingClock(start = '2026-11-22T10:00:00.000Z'): Clock & { advance(ms: number): void } {
  let t = new Date(start).getTime();
  return {
    now: () => {
      t += 1000;
      return new Date(t);
    },
    advance(ms: number) {
      t += ms;
    },
  };
}

/** Cheap scrypt cost for fixtures; verification reads the cost from each hash, so login works the same. */
export async function createAdmin(
  store: TestStore,
  email: string,
  password: string,
  role: AdminRole = 'owner',
): Promise<number> {
  return insertAdmin(
    store.handle.db,
    email,
    await hashPassword(password, { ln: 10, r: 8, p: 1 }),
    fixedClock.now(),
    role,
  );
}

type InjectTarget = { inject: FastifyInstance['inject'] };

/** Signs in through the real login procedure and returns the Cookie header for later requests. */
export async function loginCookie(
  app: InjectTarget,
  email: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/trpc/auth.login',
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify({ email, password }),
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return sessionCookieFrom(res.headers['set-cookie']);
}

/** The Cookie header a browser would send back, from a response's Set-Cookie (value kept as encoded). */
export function sessionCookieFrom(setCookie: string | string[] | undefined): string {
  const header = [setCookie ?? []].flat().find((c) => c.startsWith('store_session='));
  if (!header) throw new Error('no session cookie was set');
  return header.split(';')[0] ?? '';
}
