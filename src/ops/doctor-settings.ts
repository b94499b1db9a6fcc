import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { SESSION_KEY_FILE } from '../modules/auth/session-keys.js';
import { count } from './plural.js';

export type Level = 'OK' | 'WARN' | 'FAIL';
export type CheckResult = { level: Level; check: string; message: string };

export const ok = (check: string, message: string): CheckResult => ({ level: 'OK', check, message });
export const warn = (check: string, message: string): CheckResult => ({ level: 'WARN', check, message });
export const fail = (check: string, message: string): CheckResult => ({ level: 'FAIL', check, message });

/** A secret that passed the length rule can still be "aaaa…" or "changeme" repeated. */
function looksWeak(secret: string): boolean {
  const distinct = new Set(secret).size;
  const repeated = /^(.{1,8})\1+$/.test(secret);
  return distinct < 12 || repeated;
}

/** SESSION_SECRET's strength, or the key file's mode and shape (it seals admin cookies: whoever reads it can forge one). */
export function checkSession(config: Config): CheckResult {
  const { secret, previousSecrets } = config.session;
  if (secret) {
    if (looksWeak(secret))
      return warn(
        'session',
        'SESSION_SECRET looks guessable (few distinct characters). Fix: use `openssl rand -hex 32`.',
      );
    const weakOld = previousSecrets.filter(looksWeak).length;
    return ok(
      'session',
      `SESSION_SECRET set (${secret.length} characters)${previousSecrets.length ? `, ${previousSecrets.length} previous${weakOld ? ` (${weakOld} weak: drop it once rotated)` : ''}` : ''}`,
    );
  }
  const file = path.join(config.dataDir, SESSION_KEY_FILE);
  let mode: number;
  try {
    mode = statSync(file).mode & 0o777;
  } catch {
    return ok('session', `no ${SESSION_KEY_FILE} yet: the server creates it (mode 600) at first start`);
  }
  if (mode & 0o077)
    return fail(
      'session',
      `${file} is readable by other users (mode ${mode.toString(8)}): anyone who reads it can forge an admin session. Fix: chmod 600 ${file} (then rotate: npm run admin -- rotate-session-key).`,
    );
  let lines: string[];
  try {
    lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
  } catch (error) {
    return fail(
      'session',
      `${file} cannot be read (${(error as NodeJS.ErrnoException).code}). Fix: run as the store's user.`,
    );
  }
  if (lines.length === 0 || lines.some((l) => !/^[0-9a-f]{64}$/i.test(l.trim())))
    return fail(
      'session',
      `${file} must hold one 64-character hex key a line. Fix: npm run admin -- rotate-session-key.`,
    );
  return ok('session', `${SESSION_KEY_FILE} mode ${mode.toString(8)}, ${count(lines.length, 'key')}`);
}

/** Stripe mode from the key, the webhook secret, and settings that only make sense in tests. */
export function checkStripe(config: Config, env: NodeJS.ProcessEnv): CheckResult[] {
  const results: CheckResult[] = [];
  if (config.isProduction && env.STRIPE_API_URL)
    results.push(
      fail(
        'stripe',
        'STRIPE_API_URL is set: it sends payments to a fake Stripe. Fix: unset it in production.',
      ),
    );
  if (!config.stripe) {
    results.push(
      config.isProduction
        ? warn(
            'stripe',
            'no STRIPE_SECRET_KEY: demo payment mode, checkout completes without taking money. Fix: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET.',
          )
        : ok('stripe', 'demo payment mode (no STRIPE_SECRET_KEY)'),
    );
    return results;
  }
  const live = /^(sk|rk)_live_/.test(config.stripe.secretKey);
  const mode = live ? 'live' : 'test';
  if (!config.stripe.webhookSecret) {
    results.push(
      fail(
        'stripe',
        `${mode} key set but no STRIPE_WEBHOOK_SECRET: orders never learn they were paid. Fix: add the endpoint ${config.publicUrl}/api/stripe/webhook in Stripe and set its whsec_… secret.`,
      ),
    );
  } else if (config.isProduction && !live) {
    results.push(
      warn(
        'stripe',
        'test-mode key (sk_test_) in production: shoppers cannot really pay. Fix: use the sk_live_ key when you open the shop.',
      ),
    );
  } else if (!config.isProduction && live) {
    results.push(
      warn(
        'stripe',
        'live-mode key outside NODE_ENV=production: real cards would be charged. Fix: use an sk_test_ key here.',
      ),
    );
  } else {
    results.push(ok('stripe', `${mode} mode, webhook secret set`));
  }
  return results;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** PUBLIC_URL (links, Stripe redirects, secure cookies, HSTS) and TRUST_PROXY against HOST. */
export function checkAddresses(config: Config, env: NodeJS.ProcessEnv): CheckResult[] {
  const results: CheckResult[] = [];
  const https = config.publicUrl.startsWith('https://');
  if (config.isProduction && !env.PUBLIC_URL)
    results.push(
      fail(
        'public-url',
        'PUBLIC_URL is not set: links and Stripe redirects point at 127.0.0.1. Fix: PUBLIC_URL=https://your-shop.example.',
      ),
    );
  else if (config.isProduction && !https)
    results.push(
      fail(
        'public-url',
        `${config.publicUrl} is not https: admin cookies are not Secure and Stripe live redirects need https. Fix: put a TLS proxy in front (docs/deployment.md) and use its https address.`,
      ),
    );
  else results.push(ok('public-url', config.publicUrl));

  const loopback = LOOPBACK.has(config.host);
  if (config.trustProxy === true && !loopback)
    results.push(
      warn(
        'proxy',
        `TRUST_PROXY=true while listening on ${config.host}: any client can forge X-Forwarded-For. Fix: TRUST_PROXY=<your proxy's address>.`,
      ),
    );
  else if (config.isProduction && https && loopback && config.trustProxy === false)
    results.push(
      warn(
        'proxy',
        "served through a proxy on this machine (https PUBLIC_URL, HOST loopback) but TRUST_PROXY=false: every shopper shares the proxy's address for rate limits and logs. Fix: TRUST_PROXY=127.0.0.1.",
      ),
    );
  else
    results.push(
      ok(
        'proxy',
        `TRUST_PROXY=${Array.isArray(config.trustProxy) ? config.trustProxy.join(',') : String(config.trustProxy)}`,
      ),
    );
  return results;
}

/**
 * Where the order emails go: a mail server (named by its host only: the URL holds the password) and the From,
 * or none, in which case emails wait in the outbox and customers hear nothing.
 */
export function checkMail(config: Config): CheckResult[] {
  const { smtpHost, from, defaultFromAddress } = config.mail;
  if (!smtpHost)
    return [
      config.isProduction
        ? warn(
            'mail',
            'no SMTP_URL: order emails wait in the outbox and customers get none. Fix: set SMTP_URL (smtp://user:password@host:587) and MAIL_FROM, then restart.',
          )
        : ok(
            'mail',
            'no SMTP_URL: order emails wait in the outbox (printed to the log in demo payment mode)',
          ),
    ];
  const sender = from ? from.address : `${defaultFromAddress} (default)`;
  if (config.isProduction && !from)
    return [
      warn(
        'mail',
        `emails through ${smtpHost}, from ${sender}: mail servers often refuse or bin a From they do not know. Fix: set MAIL_FROM to an address your provider sends for (SPF, DKIM).`,
      ),
    ];
  return [ok('mail', `emails through ${smtpHost}, from ${sender}`)];
}
