import secureSession from '@fastify/secure-session';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config.js';
import { registerDeviceCookieWriter } from '../modules/auth/device-cookie-http.js';
import { SESSION_COOKIE } from '../modules/auth/session.js';
import { registerSameOriginGuard } from './same-origin.js';

/**
 * What protects every answer and every write: the security headers (a strict CSP that allows the page
 * shell's inline style and boot script by their hashes), the sealed session cookie, the device cookie, and
 * the same-origin guard on writes. The Stripe webhook is exempt from the guard: it is authenticated by its
 * signature.
 */
export async function registerSecurity(
  app: FastifyInstance,
  opts: {
    config: Config;
    sessionKeys: Buffer[];
    styleHashes: readonly string[];
    /** The page shell's inline boot script (page-shell.ts): allowed by its hash, no other inline script. */
    scriptHashes?: readonly string[];
  },
): Promise<void> {
  const { config } = opts;
  const secureTransport = config.publicUrl.startsWith('https://');
  // Built once: @fastify/helmet built helmet's middleware again for every request, parsing the CSP each
  // time (9 % of an uncached API request's time).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(opts.scriptHashes ?? [])],
        styleSrc: ["'self'", ...opts.styleHashes],
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
  app.addHook('onRequest', (req, reply, done) => {
    // Helmet throws rather than passing errors on (since 8.1); `next` is only ever called without one.
    securityHeaders(req.raw, reply.raw, (error?: unknown) =>
      done(error instanceof Error ? error : undefined),
    );
  });

  await app.register(secureSession, {
    key: opts.sessionKeys,
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
}
