import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  loginCookie,
  manualClock,
  sessionCookieFrom,
  type TestStore,
} from '../../test-support/test-store.js';

const EMAIL = 'owner@shop.example';
const PASSWORD = 'correct horse battery';
const json = { 'content-type': 'application/json' };

describe('admin sign-in over HTTP', () => {
  let store: TestStore;
  let app: FastifyInstance;
  afterEach(async () => {
    await app?.close();
    await store.cleanup();
  });

  async function setup(env: Record<string, string> = {}, extra: Parameters<typeof buildTestApp>[1] = {}) {
    store = await createTestStore({ env });
    await createAdmin(store, EMAIL, PASSWORD);
    app = await buildTestApp(store, extra);
  }

  const me = async (cookie?: string) => {
    const res = await app.inject({ url: '/api/trpc/auth.me', headers: cookie ? { cookie } : {} });
    return (res.json() as { result: { data: { email: string; loginAt: string; role: string } | null } })
      .result.data;
  };
  const login = (email: string, password: string, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/trpc/auth.login',
      headers: { ...json, ...headers },
      payload: JSON.stringify({ email, password }),
    });
  const profile = (cookie: string) =>
    app.inject({ url: '/api/trpc/admin.account.profile', headers: { cookie } });

  it('signs in with the right password and sets a sealed HttpOnly, SameSite=Lax cookie', async () => {
    await setup();
    const res = await login(EMAIL, PASSWORD);
    expect(res.statusCode).toBe(200);
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/^store_session=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).toMatch(/Max-Age=43200/);
    expect(setCookie).not.toMatch(/Secure/i);
    expect(setCookie).not.toContain(EMAIL); // sealed, not readable
    const cookie = await loginCookie(app, EMAIL, PASSWORD);
    expect(await me(cookie)).toEqual({
      stage: 'signed-in',
      email: EMAIL,
      loginAt: '2026-11-22T10:00:00.000Z',
      role: 'owner',
      twoFactor: false,
    });
    expect(await me()).toBeNull();
  });

  it('marks the cookie Secure when the store is served over https', async () => {
    await setup({ PUBLIC_URL: 'https://shop.example' });
    const res = await login(EMAIL, PASSWORD, { origin: 'https://shop.example' });
    expect(String(res.headers['set-cookie'])).toMatch(/Secure/);
  });

  it('accepts the email in any case', async () => {
    await setup();
    expect((await login('Owner@SHOP.example', PASSWORD)).statusCode).toBe(200);
  });

  it("answers 'Invalid credentials' alike for a wrong password and an unknown email", async () => {
    await setup();
    const wrong = await login(EMAIL, 'not the password');
    const unknown = await login('nobody@shop.example', PASSWORD);
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const strip = (body: string) => body.replace(/"requestId":"[^"]+"/, '');
    expect(strip(wrong.body)).toBe(strip(unknown.body));
    expect((wrong.json() as { error: { message: string } }).error.message).toBe('Invalid credentials');
  });

  it('never writes a password to the log, and logs sign-ins and failures', async () => {
    const logLines: string[] = [];
    await setup({}, { logLines });
    await login(EMAIL, 'my-wrong-guess-123');
    await login('typo@shop.example', 'another-secret-456');
    await loginCookie(app, EMAIL, PASSWORD);
    const log = logLines.join('\n');
    expect(log).toContain('admin.login.failed');
    expect(log).toContain('admin.login"');
    for (const secret of ['my-wrong-guess-123', 'another-secret-456', PASSWORD, 'typo@shop.example']) {
      expect(log).not.toContain(secret);
    }
  });

  it('rejects a tampered cookie', async () => {
    await setup();
    const cookie = await loginCookie(app, EMAIL, PASSWORD);
    const value = cookie.slice('store_session='.length);
    const flipped = `store_session=${value.slice(0, 10)}${value[10] === 'A' ? 'B' : 'A'}${value.slice(11)}`;
    expect(await me(flipped)).toBeNull();
    expect((await profile(flipped)).statusCode).toBe(401);
    expect((await profile('store_session=garbage')).statusCode).toBe(401);
  });

  it('ends a session after its absolute lifetime even while it is in use', async () => {
    const clock = manualClock();
    await setup({}, { clock });
    let cookie = await loginCookie(app, EMAIL, PASSWORD);
    for (let h = 0; h < 11; h++) {
      clock.advance(60 * 60_000);
      const res = await profile(cookie);
      expect(res.statusCode).toBe(200);
      // Like a browser, keep the refreshed cookie (its last-seen time moved on).
      if (res.headers['set-cookie']) cookie = sessionCookieFrom(res.headers['set-cookie']);
    }
    clock.advance(61 * 60_000); // 12 h 1 min after sign-in
    expect((await profile(cookie)).statusCode).toBe(401);
  });

  it('ends an idle session after the idle timeout', async () => {
    const clock = manualClock();
    await setup({ SESSION_IDLE_MINUTES: '30' }, { clock });
    const cookie = await loginCookie(app, EMAIL, PASSWORD);
    clock.advance(29 * 60_000);
    expect((await profile(cookie)).statusCode).toBe(200);
    clock.advance(31 * 60_000);
    expect((await profile(cookie)).statusCode).toBe(401);
  });

  it('signs out only this browser on logout, and every browser on "sign out everywhere"', async () => {
    await setup();
    const a = await loginCookie(app, EMAIL, PASSWORD);
    const b = await loginCookie(app, EMAIL, PASSWORD);
    const logout = await app.inject({
      method: 'POST',
      url: '/api/trpc/auth.logout',
      headers: { ...json, cookie: a },
    });
    expect(String(logout.headers['set-cookie'])).toMatch(
      /store_session=;|Max-Age=0|Expires=Thu, 01 Jan 1970/,
    );
    expect((await profile(b)).statusCode).toBe(200);

    const c = await loginCookie(app, EMAIL, PASSWORD);
    const everywhere = await app.inject({
      method: 'POST',
      url: '/api/trpc/admin.account.signOutEverywhere',
      headers: { ...json, cookie: c },
    });
    expect(everywhere.statusCode).toBe(200);
    expect((await profile(b)).statusCode).toBe(401);
    expect((await profile(c)).statusCode).toBe(401);
  });

  it('changes the password: other sessions end, this one continues, only the new password works', async () => {
    await setup();
    const other = await loginCookie(app, EMAIL, PASSWORD);
    const mine = await loginCookie(app, EMAIL, PASSWORD);
    const change = (currentPassword: string, newPassword: string) =>
      app.inject({
        method: 'POST',
        url: '/api/trpc/admin.account.changePassword',
        headers: { ...json, cookie: mine },
        payload: JSON.stringify({ currentPassword, newPassword }),
      });
    expect((await change('wrong current password', 'a brand new password')).statusCode).toBe(400);
    expect((await change(PASSWORD, 'short')).statusCode).toBe(400);
    const ok = await change(PASSWORD, 'a brand new password');
    expect(ok.statusCode).toBe(200);
    // This browser goes on with the cookie the answer set (its session moved into the new epoch under a new
    // id); the cookie it had before opens nothing, as the others' do not.
    expect((await profile(sessionCookieFrom(ok.headers['set-cookie']))).statusCode).toBe(200);
    expect((await profile(mine)).statusCode).toBe(401);
    expect((await profile(other)).statusCode).toBe(401);
    expect((await login(EMAIL, PASSWORD)).statusCode).toBe(401);
    expect((await login(EMAIL, 'a brand new password')).statusCode).toBe(200);
  });

  it('rotates keys: a cookie sealed with the previous secret still opens, and not once it is dropped', async () => {
    const oldSecret = 'o'.repeat(40);
    const newSecret = 'n'.repeat(40);
    await setup({ SESSION_SECRET: oldSecret });
    const cookie = await loginCookie(app, EMAIL, PASSWORD);
    await app.close();

    const rotated = loadConfig({
      ...baseEnv(store),
      SESSION_SECRET: newSecret,
      SESSION_SECRET_PREVIOUS: oldSecret,
    });
    app = await buildTestApp(store, { config: rotated });
    expect((await profile(cookie)).statusCode).toBe(200);
    const fresh = await loginCookie(app, EMAIL, PASSWORD);
    await app.close();

    app = await buildTestApp(store, { config: loadConfig({ ...baseEnv(store), SESSION_SECRET: newSecret }) });
    expect((await profile(cookie)).statusCode).toBe(401);
    expect((await profile(fresh)).statusCode).toBe(200);
  });

  it('creates the session key file with mode 0600', async () => {
    await setup();
    const { statSync } = await import('node:fs');
    expect(statSync(`${store.dir}/session.key`).mode & 0o777).toBe(0o600);
  });
});

function baseEnv(store: TestStore): Record<string, string> {
  return { NODE_ENV: 'test', DATA_DIR: store.dir, LOG_LEVEL: 'silent' };
}

describe('sign-in rate limits and cross-site protection', () => {
  let store: TestStore;
  let app: FastifyInstance;
  afterEach(async () => {
    await app?.close();
    await store.cleanup();
  });

  const attempt = (email: string, password: string, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/trpc/auth.login',
      headers: { ...json, ...headers },
      payload: JSON.stringify({ email, password }),
      remoteAddress: headers['x-test-remote'] ?? '198.51.100.1',
    });

  it('answers 429 after 20 attempts from one address, and a forged X-Forwarded-For does not help', async () => {
    store = await createTestStore();
    await createAdmin(store, EMAIL, PASSWORD);
    // Real (cheaply hashed) accounts keep these 20 misses fast; unknown emails cost a full-price hash each.
    for (let i = 0; i < 20; i++) await createAdmin(store, `guess${i}@shop.example`, PASSWORD);
    app = await buildTestApp(store);
    for (let i = 0; i < 20; i++) {
      const res = await attempt(`guess${i}@shop.example`, 'wrong password', {
        'x-forwarded-for': `10.0.0.${i}`,
      });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await attempt(EMAIL, PASSWORD, { 'x-forwarded-for': '10.9.9.9' });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.body).toContain('Too many sign-in attempts');
    // Another address is not affected.
    expect((await attempt(EMAIL, PASSWORD, { 'x-test-remote': '198.51.100.2' })).statusCode).toBe(200);
  });

  it('counts failures per address, not successes: 25 sign-ins in a row from one address all go through', async () => {
    store = await createTestStore();
    await createAdmin(store, EMAIL, PASSWORD);
    app = await buildTestApp(store);
    for (let i = 0; i < 25; i++) expect((await attempt(EMAIL, PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) expect((await attempt(EMAIL, 'wrong password')).statusCode).toBe(401);
    expect((await attempt(EMAIL, PASSWORD)).statusCode).toBe(429);
  });

  it('honours X-Forwarded-For only from a trusted proxy', async () => {
    store = await createTestStore({ env: { TRUST_PROXY: '127.0.0.1' } });
    await createAdmin(store, EMAIL, PASSWORD);
    for (let i = 0; i < 20; i++) await createAdmin(store, `g${i}@shop.example`, PASSWORD);
    app = await buildTestApp(store);
    const viaProxy = (client: string) => ({ 'x-forwarded-for': client, 'x-test-remote': '127.0.0.1' });
    for (let i = 0; i < 20; i++)
      await attempt(`g${i}@shop.example`, 'wrong password', viaProxy('203.0.113.50'));
    expect((await attempt(EMAIL, PASSWORD, viaProxy('203.0.113.50'))).statusCode).toBe(429);
    expect((await attempt(EMAIL, PASSWORD, viaProxy('203.0.113.51'))).statusCode).toBe(200);
  });

  it('after 10 failures for an account from any addresses, refuses browsers without its device cookie (no longer everybody: known devices still sign in, see sign-in-under-attack.test.ts)', async () => {
    store = await createTestStore();
    await createAdmin(store, EMAIL, PASSWORD);
    app = await buildTestApp(store);
    for (let i = 0; i < 10; i++) {
      expect((await attempt(EMAIL, 'wrong password', { 'x-test-remote': `192.0.2.${i}` })).statusCode).toBe(
        401,
      );
    }
    expect((await attempt(EMAIL, PASSWORD, { 'x-test-remote': '192.0.2.200' })).statusCode).toBe(429);
  });

  it('refuses mutations from another site, by Origin or Sec-Fetch-Site, and non-JSON bodies', async () => {
    store = await createTestStore();
    await createAdmin(store, EMAIL, PASSWORD);
    app = await buildTestApp(store);
    const evil = await attempt(EMAIL, PASSWORD, { origin: 'https://evil.example' });
    expect(evil.statusCode).toBe(403);
    expect(evil.headers['set-cookie']).toBeUndefined();
    expect((await attempt(EMAIL, PASSWORD, { 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    expect((await attempt(EMAIL, PASSWORD, { 'sec-fetch-site': 'same-site' })).statusCode).toBe(403);

    const form = await app.inject({
      method: 'POST',
      url: '/api/trpc/auth.login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `email=${EMAIL}&password=${PASSWORD}`,
    });
    expect(form.statusCode).toBe(415);
    const plain = await app.inject({
      method: 'POST',
      url: '/api/trpc/auth.login',
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    expect(plain.statusCode).toBe(415);

    const own = await attempt(EMAIL, PASSWORD, {
      origin: 'http://localhost:80',
      host: 'localhost:80',
      'sec-fetch-site': 'same-origin',
    });
    expect(own.statusCode).toBe(200);
    const configured = await attempt(EMAIL, PASSWORD, { origin: 'http://127.0.0.1:3000' });
    expect(configured.statusCode).toBe(200);
  });
});
