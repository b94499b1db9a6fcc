import path from 'node:path';
import { z } from 'zod';

const booleanish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes' || v === 'on');

/**
 * TRUST_PROXY mirrors Fastify's trustProxy: "false" (default, ignore X-Forwarded-*), "true" (trust every hop:
 * only safe when the store is reachable solely through the proxy), a hop count, or a comma list of proxy
 * addresses/CIDRs. Getting this wrong lets clients forge their IP, so it is parsed strictly.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((value, ctx): boolean | number | string[] => {
    if (value === 'true' || value === 'false') return value === 'true';
    if (/^\d+$/.test(value)) return Number(value);
    const parts = value.split(',').map((p) => p.trim());
    if (parts.length > 0 && parts.every((p) => /^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(p))) return parts;
    ctx.addIssue({
      code: 'custom',
      message: 'expected true, false, a hop count or a comma list of IPs/CIDRs',
    });
    return z.NEVER;
  });

/** How long the admin audit keeps its entries when AUDIT_RETENTION_DAYS is not set: two years. */
const DEFAULT_AUDIT_RETENTION_DAYS = 730;

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .transform((u) => u.replace(/\/+$/, ''))
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_MAX_ENTRIES: z.coerce.number().int().min(100).max(10_000_000).default(50_000),
  LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /**
   * The admin audit's own retention (decision 0031): never shorter than the application log's. Unset, two
   * years, or the log's own when that is longer.
   */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).optional(),
  TRUST_PROXY: trustProxy.default(false),
  DEMO_CATALOGUE: booleanish.default(true),
  /** Every admin account must turn on two-factor sign-in at its next sign-in (decision 0032). */
  ADMIN_REQUIRE_2FA: booleanish.default(false),
  /**
   * PostgreSQL instead of the embedded SQLite file, for several store processes on one database:
   * postgres://user:password@host:5432/name (postgresql:// too). Without it the store uses DATA_DIR/store.db.
   */
  DATABASE_URL: z
    .string()
    .trim()
    .refine((v) => /^postgres(ql)?:\/\/[^\s]+$/.test(v), 'must be a postgres:// or postgresql:// URL')
    .optional(),
  /** Connections one process keeps open to PostgreSQL. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * The folder holding pg_dump and pg_restore (e.g. /usr/lib/postgresql/16/bin), when the ones on PATH are
   * missing or of another major version than the server. Backups and restores on PostgreSQL use them.
   */
  POSTGRES_BIN_DIR: z.string().trim().min(1).optional(),
  /**
   * Redis for the sign-in throttle and the per-address limits, shared by every process that uses it:
   * redis://[:password@]host:6379[/db] (rediss:// for TLS). Without it they live in the database with
   * DATABASE_URL, in memory otherwise. See docs/decisions/0017-shared-limits.md.
   */
  REDIS_URL: z
    .string()
    .trim()
    .refine((v) => /^rediss?:\/\/[^\s]+$/.test(v), 'must be a redis:// or rediss:// URL')
    .optional(),
  /** Put before every Redis key the store writes, so several stores can share one Redis. */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:._-]{1,64}$/, 'must be 1-64 letters, digits or : . _ -')
    .default('storefront:'),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SESSION_SECRET_PREVIOUS: z.string().optional(),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .min(0.1)
    .max(24 * 30)
    .default(12),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .min(1)
    .max(24 * 60 * 30)
    .default(120),
  /**
   * Failed sign-ins per client address in 15 minutes, whatever accounts they were for, before that address
   * gets 429 for the rest of the window. A browser with a device cookie for the account it signs in to is
   * not counted here (see LOGIN_MAX_FAILURES_PER_ACCOUNT). See modules/auth/login-throttle.ts.
   */
  LOGIN_MAX_ATTEMPTS_PER_IP: z.coerce.number().int().min(1).max(100_000).default(20),
  /**
   * Wrong passwords for one account in 15 minutes: from one address, then that address gets 429 for that
   * account; from one known device (device cookie from an earlier sign-in), then that browser counts as
   * unknown; from all unknown browsers together, then each further try from an unknown browser waits 30 s,
   * doubling each time. Known devices are never slowed by other browsers' failures.
   */
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).max(100_000).default(10),
  /**
   * Milliseconds of query work per second one client address may use on public (shopper) queries that the
   * answer cache cannot serve; ten seconds' worth may be spent at once. 0 turns the budget off (a load test
   * from one address). See modules/limits/public-call-gate.ts.
   */
  PUBLIC_QUERY_MS_PER_SECOND: z.coerce.number().int().min(0).max(1000).default(300),
  /** Checkout sessions one client address may open per 10 minutes. */
  CHECKOUTS_PER_IP: z.coerce.number().int().min(1).max(100_000).default(10),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/, 'must be a Stripe secret key (sk_test_…, sk_live_… or rk_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/=]+$/, 'must start with whsec_')
    .optional(),
  /**
   * The mail server the order emails go through: smtp://user:password@host:587 (STARTTLS when the server
   * offers it) or smtps://user:password@host:465 (TLS from the start). Without it emails wait in the outbox.
   */
  SMTP_URL: z
    .string()
    .trim()
    .refine((v) => /^smtps?:\/\/[^\s]+$/.test(v) && URL.canParse(v), 'must be an smtp:// or smtps:// URL')
    .optional(),
  /**
   * The From of the order emails: an address, or a name and an address ("Store" <shop@example.com>).
   * Default: the store's name (from the settings) and no-reply@ the host of PUBLIC_URL.
   */
  MAIL_FROM: z
    .string()
    .trim()
    .max(320)
    .refine((v) => parseMailbox(v) !== null, 'must be an email address, or "Name" <address>')
    .optional(),
  /** Only for tests and local Stripe mocks: where the stripe package sends its API calls. */
  STRIPE_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(12, 'must be at least 12 characters').max(1024).optional(),
  /** Backups (npm run backup and the scheduled ones): see src/ops/backup.ts. */
  BACKUP_DIR: z.string().trim().min(1).optional(),
  BACKUP_INTERVAL_HOURS: z
    .union([
      z.literal('off').transform(() => 0),
      z.coerce
        .number()
        .min(0)
        .max(24 * 366),
    ])
    .default(0),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(10_000).default(14),
  /**
   * Media and catalogue files in this S3-compatible bucket instead of DATA_DIR (several store processes
   * share it). Credentials come through the AWS SDK's own variables (AWS_ACCESS_KEY_ID,
   * AWS_SECRET_ACCESS_KEY, AWS_PROFILE…), never through the store's.
   */
  S3_BUCKET: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3-63 of a-z, 0-9, "." and "-")')
    .optional(),
  /** An S3-compatible server instead of AWS: https://minio.internal:9000, https://<account>.r2.cloudflarestorage.com */
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  /** The bucket's region; AWS_REGION when unset, else us-east-1 (what most S3-compatible servers expect). */
  S3_REGION: z
    .string()
    .trim()
    .regex(/^[a-z0-9-]{2,40}$/, 'must be a region name such as eu-west-1')
    .optional(),
  /** Address the bucket as a path (http://host/bucket/key) rather than a host name: MinIO and most self-hosted servers. */
  S3_FORCE_PATH_STYLE: booleanish.default(false),
  /**
   * Turns on GET /metrics (Prometheus text: event-loop delay, memory) for a collector that sends
   * `Authorization: Bearer <token>`. Without it the route does not exist.
   */
  METRICS_TOKEN: z.string().trim().min(24, 'must be at least 24 characters').max(512).optional(),
});

/** Never echoed back in an error message: they end up in terminals and logs. */
const SECRET_VARIABLES = new Set([
  'SESSION_SECRET',
  'SESSION_SECRET_PREVIOUS',
  'ADMIN_PASSWORD',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'DATABASE_URL',
  'REDIS_URL',
  'SMTP_URL',
  'METRICS_TOKEN',
]);

/** An address, or a display name and an address in angle brackets; null for anything else. */
export function parseMailbox(text: string): { name: string | null; address: string } | null {
  const address = /^[^\s<>@",;]+@[^\s<>@",;]+\.?[^\s<>@",;]*$/;
  const trimmed = text.trim();
  if (address.test(trimmed)) return { name: null, address: trimmed };
  const named = /^(.*?)\s*<([^<>]+)>$/.exec(trimmed);
  if (!named) return null;
  const name = (named[1] ?? '')
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .trim();
  const inner = (named[2] ?? '').trim();
  if (!address.test(inner) || /[\r\n<>"]/.test(name) || name.length > 100) return null;
  return { name: name || null, address: inner };
}

export type Config = {
  nodeEnv: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** The application log table (admin Log Management): pruned in the background to these limits. */
  logs: { maxEntries: number; retentionDays: number };
  audit: { retentionDays: number };
  trustProxy: boolean | number | string[];
  loadDemoCatalogue: boolean;
  /** Embedded SQLite under DATA_DIR (the default), or a PostgreSQL server shared by several processes. */
  database: { kind: 'sqlite' } | { kind: 'postgres'; url: string; poolSize: number };
  /** Where pg_dump and pg_restore are looked for: POSTGRES_BIN_DIR, or null for PATH. */
  postgresBinDir: string | null;
  /** Where the limits keep their counters when several processes share them (decision 0017). */
  redis: { url: string; keyPrefix: string } | null;
  session: {
    /** Secrets from the environment; when absent the key file under DATA_DIR is used. */
    secret: string | null;
    previousSecrets: string[];
    ttlMs: number;
    idleMs: number;
    secureCookie: boolean;
    /** ADMIN_REQUIRE_2FA: a session of an account without two-factor may only enrol (decision 0032). */
    requireTwoFactor: boolean;
  };
  /** Sign-in failures per client address and per account, each per 15 minutes (see the env schema). */
  loginLimits: { perIp: number; perAccount: number };
  /** Per-address limits of shoppers' requests: public query time (ms per second; 0 = off), checkouts. */
  requestLimits: { queryMsPerSecond: number; checkoutsPerIp: number };
  /**
   * The order emails' mail server (SMTP_URL; its host alone is what logs may show, the URL holds the
   * password) and their From (MAIL_FROM; null: the store's name and no-reply@ the host of the public URL).
   */
  mail: {
    smtpUrl: string | null;
    smtpHost: string | null;
    from: { name: string | null; address: string } | null;
    /** The address used when MAIL_FROM is not set. */
    defaultFromAddress: string;
  };
  /** Real payments when a secret key is set; otherwise the demo payment mode. */
  stripe: { secretKey: string; webhookSecret: string | null; apiUrl: string | null } | null;
  /** The first admin account, created at start when no admin exists yet. */
  initialAdmin: { email: string; password: string } | null;
  /**
   * Where backups go (default DATA_DIR/backups), and the server's own schedule: every `intervalHours`
   * (0 = off), keeping the newest `keep` scheduled backups (manual ones are never pruned).
   */
  backups: { dir: string; intervalHours: number; keep: number };
  /** Where media and catalogue files live: DATA_DIR (the default), or an S3-compatible bucket. */
  /** The bearer token of GET /metrics; null: no such route. */
  metricsToken: string | null;
  storage:
    | { kind: 'local'; root: string }
    | { kind: 's3'; bucket: string; endpoint: string | null; region: string; forcePathStyle: boolean };
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment once; the first bad variable is reported in one line that names it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const input: Record<string, string> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') input[key] = value;
  }
  const parsed = envSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    const shown =
      input[name] === undefined || SECRET_VARIABLES.has(name) ? '' : ` (got ${JSON.stringify(input[name])})`;
    throw new ConfigError(
      `Invalid environment variable ${name}: ${issue?.message ?? 'invalid value'}${shown}`,
    );
  }
  const e = parsed.data;
  if (e.DATABASE_URL && !e.SESSION_SECRET) {
    // Each machine would make its own key file, and an admin moving between processes would be signed out.
    throw new ConfigError(
      'SESSION_SECRET is required with DATABASE_URL: every store process must sign admin sessions with the same key (at least 32 characters; e.g. openssl rand -base64 48)',
    );
  }
  if (!e.S3_BUCKET && (e.S3_ENDPOINT || e.S3_REGION || input.S3_FORCE_PATH_STYLE)) {
    // Half a configuration would keep the files on this machine while the operator believes they are shared.
    throw new ConfigError('S3_ENDPOINT, S3_REGION and S3_FORCE_PATH_STYLE need S3_BUCKET, the bucket to use');
  }
  const auditRetentionDays =
    e.AUDIT_RETENTION_DAYS ?? Math.max(DEFAULT_AUDIT_RETENTION_DAYS, e.LOG_RETENTION_DAYS);
  if (auditRetentionDays < e.LOG_RETENTION_DAYS) {
    // Who changed what must outlive the log lines around it, or the audit loses the trail first.
    throw new ConfigError(
      `AUDIT_RETENTION_DAYS (${e.AUDIT_RETENTION_DAYS}) must be at least LOG_RETENTION_DAYS (${e.LOG_RETENTION_DAYS}): the audit outlives the log`,
    );
  }
  const shownHost = e.HOST === '0.0.0.0' || e.HOST === '::' ? 'localhost' : e.HOST;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    nodeEnv: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    port: e.PORT,
    host: e.HOST,
    dataDir,
    publicUrl: e.PUBLIC_URL ?? `http://${shownHost}:${e.PORT}`,
    logLevel: e.LOG_LEVEL,
    logs: { maxEntries: e.LOG_MAX_ENTRIES, retentionDays: e.LOG_RETENTION_DAYS },
    audit: { retentionDays: auditRetentionDays },
    trustProxy: e.TRUST_PROXY,
    loadDemoCatalogue: e.DEMO_CATALOGUE,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL, poolSize: e.DATABASE_POOL_SIZE }
      : { kind: 'sqlite' },
    postgresBinDir: e.POSTGRES_BIN_DIR ? path.resolve(e.POSTGRES_BIN_DIR) : null,
    redis: e.REDIS_URL ? { url: e.REDIS_URL, keyPrefix: e.REDIS_KEY_PREFIX } : null,
    session: {
      secret: e.SESSION_SECRET ?? null,
      previousSecrets: (e.SESSION_SECRET_PREVIOUS ?? '')
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
      ttlMs: Math.round(e.SESSION_TTL_HOURS * 3600_000),
      idleMs: Math.round(e.SESSION_IDLE_MINUTES * 60_000),
      requireTwoFactor: e.ADMIN_REQUIRE_2FA,
      secureCookie: (e.PUBLIC_URL ?? '').startsWith('https://'),
    },
    mail: {
      smtpUrl: e.SMTP_URL ?? null,
      smtpHost: e.SMTP_URL ? new URL(e.SMTP_URL).hostname : null,
      from: e.MAIL_FROM ? parseMailbox(e.MAIL_FROM) : null,
      defaultFromAddress: `no-reply@${new URL(e.PUBLIC_URL ?? `http://${shownHost}:${e.PORT}`).hostname}`,
    },
    stripe: e.STRIPE_SECRET_KEY
      ? {
          secretKey: e.STRIPE_SECRET_KEY,
          webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? null,
          apiUrl: e.STRIPE_API_URL ?? null,
        }
      : null,
    loginLimits: { perIp: e.LOGIN_MAX_ATTEMPTS_PER_IP, perAccount: e.LOGIN_MAX_FAILURES_PER_ACCOUNT },
    requestLimits: { queryMsPerSecond: e.PUBLIC_QUERY_MS_PER_SECOND, checkoutsPerIp: e.CHECKOUTS_PER_IP },
    initialAdmin:
      e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD } : null,
    backups: {
      dir: e.BACKUP_DIR ? path.resolve(e.BACKUP_DIR) : path.join(dataDir, 'backups'),
      intervalHours: e.BACKUP_INTERVAL_HOURS,
      keep: e.BACKUP_KEEP,
    },
    metricsToken: e.METRICS_TOKEN ?? null,
    storage: e.S3_BUCKET
      ? {
          kind: 's3',
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT ?? null,
          region: e.S3_REGION ?? (env.AWS_REGION?.trim() || 'us-east-1'),
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
        }
      : { kind: 'local', root: dataDir },
  };
}
