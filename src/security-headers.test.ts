import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertProducts } from './test-support/fixtures.js';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  loginCookie,
  type TestStore,
} from './test-support/test-store.js';

/**
 * The security headers on every kind of response the store sends (pages, the 404 page, hashed assets, media,
 * tRPC answers and errors, plain JSON errors, the Stripe webhook, /healthz, framework-level refusals), and
 * the session cookie's flags. A built client folder is faked in the test's data folder.
 */

const ADMIN = { email: 'owner@shop.example', password: 'correct horse battery' };
const INDEX_HTML =
  '<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head><body><div id="root"></div></body></html>';

function fakeClientDir(store: TestStore): string {
  const dir = path.join(store.dir, 'client');
  mkdirSync(path.join(dir, 'assets'), { recursive: true });
  writeFileSync(path.join(dir, 'index.html'), INDEX_HTML);
  writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), 'console.log("hi");');
  writeFileSync(path.join(dir, 'assets', 'app-abc123.css'), 'body{margin:0}');
  return dir;
}

/** Every response: a CSP, no framing by other sites, no MIME sniffing, a referrer policy, no X-Powered-By. */
function expectSecurityHeaders(res: LightMyRequestResponse, what: string, opts: { https: boolean }): void {
  const h = res.headers;
  const csp = String(h['content-security-policy'] ?? '');
  expect(csp, `${what}: CSP`).not.toBe('');
  expect(csp, `${what}: CSP`).not.toMatch(/unsafe-eval/);
  const framing =
    /frame-ancestors 'none'/.test(csp) || /^(DENY|SAMEORIGIN)$/i.test(String(h['x-frame-options']));
  expect(framing, `${what}: frame-ancestors or X-Frame-Options`).toBe(true);
  expect(h['x-content-type-options'], `${what}: nosniff`).toBe('nosniff');
  expect(h['referrer-policy'], `${what}: Referrer-Policy`).toBe('strict-origin-when-cross-origin');
  expect(h['x-powered-by'], `${what}: X-Powered-By`).toBeUndefined();
  expect(h.server, `${what}: Server`).toBeUndefined();
  // The id an operator can look the request up by in the log.
  expect(String(h['x-request-id']), `${what}: X-Request-Id`).toMatch(/^[0-9a-f-]{36}$/);
  if (opts.https) expect(String(h['strict-transport-security']), `${what}: HSTS`).toMatch(/max-age=\d{7,}/);
  else expect(h['strict-transport-security'], `${what}: no HSTS over http`).toBeUndefined();
}

/** The app's own policy (every response but stored media, which gets a stricter sandbox of its own). */
function expectAppCsp(res: LightMyRequestResponse, what: string): void {
  const csp = String(res.headers['content-security-policy']);
  for (const directive of [
    "default-src 'self'",
    "script-src 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ]) {
    expect(csp, `${what}: ${directive}`).toContain(directive);
  }
  expect(csp, what).not.toMatch(/unsafe-inline|unsafe-eval/);
}

type Case = { name: string; request: InjectOptions; status: number; csp: 'app' | 'media' };

const CASES: Case[] = [
  { name: 'the home page', request: { url: '/' }, status: 200, csp: 'app' },
  { name: 'a product page', request: { url: '/product/p1' }, status: 200, csp: 'app' },
  { name: 'the 404 page', request: { url: '/no/such/page' }, status: 404, csp: 'app' },
  { name: 'a missing product page', request: { url: '/product/gone' }, status: 404, csp: 'app' },
  { name: 'a hashed script', request: { url: '/assets/app-abc123.js' }, status: 200, csp: 'app' },
  { name: 'a hashed stylesheet', request: { url: '/assets/app-abc123.css' }, status: 200, csp: 'app' },
  { name: 'a missing asset', request: { url: '/assets/gone-123.js' }, status: 404, csp: 'app' },
  { name: 'a media file', request: { url: '/media/demo/a.jpg' }, status: 200, csp: 'media' },
  { name: 'a media document', request: { url: '/media/demo/size-chart.pdf' }, status: 200, csp: 'media' },
  { name: 'a missing media file', request: { url: '/media/demo/gone.jpg' }, status: 404, csp: 'app' },
  { name: 'a tRPC query', request: { url: '/api/trpc/site.settings' }, status: 200, csp: 'app' },
  {
    name: 'a tRPC batch',
    request: { url: '/api/trpc/site.settings,checkout.mode?batch=1&input=%7B%7D' },
    status: 200,
    csp: 'app',
  },
  {
    name: 'a tRPC validation error',
    request: { url: '/api/trpc/catalogue.byId?input=%7B%7D' },
    status: 400,
    csp: 'app',
  },
  { name: 'a tRPC unknown procedure', request: { url: '/api/trpc/nope.nope' }, status: 404, csp: 'app' },
  {
    name: 'a tRPC admin call without a session',
    request: { url: '/api/trpc/admin.settings.get' },
    status: 401,
    csp: 'app',
  },
  {
    name: 'a tRPC mutation of the wrong content type',
    request: {
      method: 'POST',
      url: '/api/trpc/auth.logout',
      headers: { 'content-type': 'text/plain' },
      payload: 'x',
    },
    status: 415,
    csp: 'app',
  },
  {
    name: 'a body past the limit',
    request: {
      method: 'POST',
      url: '/api/trpc/auth.login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'x'.repeat(1024 * 1024 + 1) }),
    },
    status: 413,
    csp: 'app',
  },
  { name: 'an unknown API path', request: { url: '/api/nothing' }, status: 404, csp: 'app' },
  {
    name: 'an admin route without a session',
    request: { url: '/api/admin/catalog/versions/cv_x/download' },
    status: 401,
    csp: 'app',
  },
  {
    name: 'the Stripe webhook',
    request: {
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    },
    status: 503,
    csp: 'app',
  },
  { name: '/healthz', request: { url: '/healthz' }, status: 200, csp: 'app' },
];

/**
 * Fastify answers a URL it cannot decode (400) and a path past maxParamLength (414) itself, before any
 * hook: app.ts's `frameworkErrors` gives them the protective headers (a stricter CSP than the app's, since
 * the answer is a bare JSON error) and never echoes the URL.
 */
const FRAMEWORK_CASES: Case[] = [
  { name: 'a malformed URL', request: { url: '/product/%E0%A4%A' }, status: 400, csp: 'app' },
  {
    name: 'a batch path past the router limit',
    request: { url: `/api/trpc/${Array(600).fill('site.settings').join(',')}?batch=1` },
    status: 414,
    csp: 'app',
  },
];

for (const https of [true, false]) {
  describe(`security headers and cookie flags (PUBLIC_URL ${https ? 'https' : 'http'})`, () => {
    let store: TestStore;
    let app: FastifyInstance;
    beforeAll(async () => {
      store = await createTestStore({
        env: { PUBLIC_URL: https ? 'https://shop.example' : 'http://localhost:3000' },
      });
      await insertProducts(store.handle.db, [{ id: 'p1', title: 'Mint Lawn Kurta' }]);
      await createAdmin(store, ADMIN.email, ADMIN.password);
      await store.storage.put('media/demo/a.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xe0]));
      await store.storage.put('media/demo/size-chart.pdf', Buffer.from('%PDF-1.4\n'));
      app = await buildTestApp(store, { clientDir: fakeClientDir(store) });
    });
    afterAll(async () => {
      await app.close();
      await store.cleanup();
    });

    it.each(CASES)('$name', async ({ name, request, status, csp }) => {
      const res = await app.inject(request);
      expect(res.statusCode, `${name}: ${res.body.slice(0, 200)}`).toBe(status);
      expectSecurityHeaders(res, name, { https });
      if (csp === 'app') expectAppCsp(res, name);
      else expect(String(res.headers['content-security-policy'])).toMatch(/default-src 'none'.*sandbox/);
    });

    it.each(FRAMEWORK_CASES)('$name', async ({ request, status }) => {
      const res = await app.inject(request);
      expect(res.statusCode).toBe(status);
      expectSecurityHeaders(res, String(request.url), { https });
      expect(res.body).not.toContain('site.settings,site.settings');
      expect(res.body).not.toContain('%E0%A4%A');
      expect(res.json()).toMatchObject({ requestId: expect.any(String) });
    });

    it(`the session cookie is HttpOnly, SameSite=Lax, Path=/${https ? ' and Secure' : ''}`, async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/trpc/auth.login',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(ADMIN),
      });
      expect(res.statusCode).toBe(200);
      expectSecurityHeaders(res, 'sign-in', { https });
      const cookie = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('store_session='));
      expect(cookie).toBeDefined();
      const flags = (cookie ?? '')
        .split(';')
        .slice(1)
        .map((f) => f.trim().toLowerCase());
      expect(flags).toContain('httponly');
      expect(flags).toContain('samesite=lax');
      expect(flags).toContain('path=/');
      expect(flags.includes('secure')).toBe(https);
      expect(flags.some((f) => f.startsWith('domain='))).toBe(false);

      // Signing out clears it with the same flags, and the answer has the headers too.
      const session = await loginCookie(app, ADMIN.email, ADMIN.password);
      const out = await app.inject({
        method: 'POST',
        url: '/api/trpc/auth.logout',
        headers: { 'content-type': 'application/json', cookie: session },
      });
      expect(out.statusCode).toBe(200);
      expectSecurityHeaders(out, 'sign-out', { https });
      const cleared = [out.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('store_session='));
      expect(cleared?.toLowerCase()).toMatch(/httponly/);
      expect(cleared?.toLowerCase()).toMatch(/samesite=lax/);
      expect(cleared?.toLowerCase().includes('secure')).toBe(https);

      // An admin answer read with the session carries them as well.
      const profile = await app.inject({
        url: '/api/trpc/admin.account.profile',
        headers: { cookie: session },
      });
      expectSecurityHeaders(profile, 'admin profile', { https });
    });
  });
}

describe('security headers on failures', () => {
  it('an internal error (500) in production carries them too', async () => {
    const broken = await createTestStore({ env: { NODE_ENV: 'production' } });
    const brokenApp = await buildTestApp(broken);
    try {
      await broken.handle.db.schema.dropTable('product_facets').execute();
      await broken.handle.db.schema.dropTable('web_vitals').execute();
      const requests: InjectOptions[] = [
        { url: '/api/trpc/catalogue.facets?input=%7B%7D' },
        {
          method: 'POST',
          url: '/api/vitals',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ path: '/', metrics: [{ name: 'LCP', value: 1 }] }),
        },
      ];
      for (const request of requests) {
        const res = await brokenApp.inject(request);
        expect(res.statusCode).toBe(500);
        expectSecurityHeaders(res, String(request.url), { https: false });
        expectAppCsp(res, String(request.url));
      }
    } finally {
      await brokenApp.close();
      await broken.cleanup();
    }
  });
});
