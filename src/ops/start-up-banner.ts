import path from 'node:path';
import type { Config } from '../config.js';
import type { FirstAdminResult } from '../modules/auth/first-admin.js';

export type StartUpFacts = {
  config: Config;
  /** The port the server really listens on (PORT=0 picks one). */
  port: number;
  /** Products the demo loader put into an empty store at this start, or null. */
  demoProducts: number | null;
  firstAdmin: FirstAdminResult;
  cwd: string;
};

/**
 * The admin command as the operator can run it here. In production the store may be installed without dev
 * dependencies (npm ci --omit=dev): tsx, which `npm run admin` needs, is then missing, dist/admin.js is not.
 */
export function adminCommand(config: Config): string {
  return config.isProduction ? 'node dist/admin.js' : 'npm run admin --';
}

function adminHint(result: FirstAdminResult, command: string): string[] {
  switch (result.kind) {
    case 'demo':
      return [
        '',
        '  Sign in to the admin with (this password is shown only now):',
        `    email:    ${result.email}`,
        `    password: ${result.password}`,
        '  Change it under Profile, or create your own account with',
        `    ${command} create you@example.com`,
        '',
      ];
    case 'from-env':
      return [`  Created the admin account ${result.email} from ADMIN_EMAIL.`];
    case 'none':
      return [
        '',
        '  No admin account yet. Create one, then sign in:',
        `    ${command} create you@example.com`,
        '',
      ];
    default:
      return [];
  }
}

function paymentsLine(config: Config): string {
  if (!config.stripe)
    return '  Payments: demo mode (no STRIPE_SECRET_KEY): checkout completes without moving money.';
  const live = /^(sk|rk)_live_/.test(config.stripe.secretKey);
  const webhook = config.stripe.webhookSecret
    ? ''
    : ' - STRIPE_WEBHOOK_SECRET is not set: orders will not learn of payments';
  return `  Payments: Stripe (${live ? 'live' : 'test'} mode)${webhook}`;
}

/**
 * What the person at the terminal reads at every start: where the store and its admin are, the data
 * folder, how to get into the admin, payments, backups, and why request lines do not follow (if so).
 */
export function startUpBanner(facts: StartUpFacts): string {
  const { config } = facts;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const storeUrl = `http://${host}:${facts.port}/`;
  const quiet = ['warn', 'error', 'fatal', 'silent'].includes(config.logLevel);
  const lines = [
    '',
    `  Store is running at ${storeUrl}`,
    `  Admin is at         ${storeUrl}admin`,
    `  Data folder: ${path.relative(facts.cwd, config.dataDir) || '.'} (${config.dataDir})`,
    // Media and catalogue files are not in the data folder then: say where they are.
    config.storage.kind === 's3'
      ? `  Files: S3 bucket ${config.storage.bucket}${config.storage.endpoint ? ` at ${config.storage.endpoint}` : ''}`
      : null,
    facts.demoProducts !== null ? `  Loaded the demo catalogue: ${facts.demoProducts} products.` : null,
    ...adminHint(facts.firstAdmin, adminCommand(config)),
    config.host === '127.0.0.1' || config.host === 'localhost'
      ? '  Only this machine can reach it; set HOST=0.0.0.0 to listen on every interface.'
      : null,
    paymentsLine(config),
    config.backups.intervalHours > 0
      ? `  Backups: every ${config.backups.intervalHours} h into ${config.backups.dir}, keeping ${config.backups.keep}.`
      : null,
    quiet
      ? `  Log: warnings and errors only (LOG_LEVEL=${config.logLevel}); LOG_LEVEL=info adds a line per request.`
      : null,
    '  Press Ctrl+C to stop.',
    '',
  ];
  return lines.filter((l): l is string => l !== null).join('\n');
}
