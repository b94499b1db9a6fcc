import type { CreateFastifyContextOptions } from '@trpc/server/adapters/fastify';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Clock } from '../core/clock.js';
import { keepOutOfResponseCaches } from '../core/uncacheable-requests.js';
import type { Db } from '../db/database.js';
import { type RevisionReader, settledRevision } from '../db/store-revision.js';
import type { LoginThrottle } from '../modules/auth/login-throttle.js';
import {
  type AdminIdentity,
  cookieSession,
  type PendingSignIn,
  resolveSignIn,
  type SessionPort,
  sessionPolicyOf,
} from '../modules/auth/session.js';
import type { SecretBox } from '../modules/auth/two-factor/secret-box.js';
import type { MailOutbox } from '../modules/email/mail-worker.js';
import type { TelemetryLimits } from '../modules/limits/report-limits.js';
import type { RequestLimits } from '../modules/limits/request-limits.js';
import type { LogService } from '../modules/logs/log-service.js';
import type { PaymentGateway } from '../modules/payments/payment-gateway.js';
import type { BackInStockWatch } from '../modules/stock/back-in-stock-worker.js';
import type { FileStorage } from '../storage/file-storage.js';

export type { AdminIdentity };

/** What every procedure may use. Tests build this directly; the HTTP layer fills it from the request. */
export type InnerContext = {
  db: Db;
  config: Config;
  clock: Clock;
  storage: FileStorage;
  loginThrottle: LoginThrottle;
  /** Seals the admins' TOTP secrets (keys from the session keys). */
  secrets: SecretBox;
  payments: PaymentGateway;
  log: FastifyBaseLogger;
  /** The application log table's writer (admin.logs reads the table; clear goes through here). */
  logs: LogService;
  /** Per-IP limits of the public report endpoints. */
  telemetry: TelemetryLimits;
  /** Per-address limits of public queries and checkout sessions. */
  limits: RequestLimits;
  /** The email outbox's worker: nudge() after a commit that queued mail (modules/email). */
  mail: MailOutbox;
  /** nudge() after a commit that may have made a sold-out size available again (modules/stock). */
  backInStock: BackInStockWatch;
  /** The signed-in admin, resolved once per request from the session; null for shoppers. */
  admin: AdminIdentity | null;
  /**
   * A session half signed in (the password was right; a two-factor code or enrolment is owed): only the
   * sign-in's next step and, for 'enrol', the enrolment procedures may use it. Absent in contexts tests build.
   */
  pendingSignIn?: PendingSignIn | null;
  session: SessionPort;
  ip: string;
  requestId: string;
  /**
   * Keeps this request's answer out of the response caches (public API answers and whole pages), which
   * file it under the storefront revision read before it ran: for an answer that is right, but not for
   * that revision (facets counted by an older snapshot while a newer one loads).
   */
  keepOutOfResponseCaches(): void;
  /** Told the time the public-query gate charged for each call (public-caller.ts), when someone asks. */
  gateCharged?: (ms: number) => void;
  /**
   * The storefront revision, read once for the request from the process's revision reader (a prepared
   * statement on SQLite, the notified copy on PostgreSQL), so a batch's calls agree on it and none reads it
   * again through the query builder. Null when it cannot be read; absent in contexts tests build by hand.
   * Either way the repositories then read it themselves.
   */
  storefrontRevision?: () => Promise<string | null>;
};

export type Context = InnerContext;

export type ContextDeps = ContextServices & {
  /** The storefront revision's reader (db/store-revision.ts); without one, each query reads it itself. */
  revision?: RevisionReader;
};

type ContextServices = Pick<
  InnerContext,
  | 'db'
  | 'config'
  | 'clock'
  | 'storage'
  | 'loginThrottle'
  | 'secrets'
  | 'payments'
  | 'logs'
  | 'telemetry'
  | 'limits'
  | 'mail'
  | 'backInStock'
>;

export function createContextFactory(deps: ContextDeps) {
  const policy = sessionPolicyOf(deps.config);
  return async ({ req }: CreateFastifyContextOptions): Promise<Context> => {
    const session = cookieSession(req);
    const signIn = await resolveSignIn(session, { db: deps.db, clock: deps.clock, policy });
    return {
      ...requestServices(deps),
      log: req.log,
      session,
      admin: signIn.admin,
      pendingSignIn: signIn.pending,
      ip: req.ip,
      requestId: String(req.id),
      keepOutOfResponseCaches: () => keepOutOfResponseCaches(req),
    };
  };
}

/**
 * The services of one request's context: the deps, with the revision reader turned into the request's
 * storefront revision (`known` when the caller has read it already, else read at the first ask and kept).
 */
export function requestServices(
  deps: ContextDeps,
  known?: string,
): ContextServices & Pick<InnerContext, 'storefrontRevision'> {
  const { revision, ...services } = deps;
  if (known !== undefined) return { ...services, storefrontRevision: async () => known };
  if (!revision) return services;
  let value: Promise<string | null> | undefined;
  return {
    ...services,
    storefrontRevision: () => {
      value ??= settledRevision(revision);
      return value;
    },
  };
}
