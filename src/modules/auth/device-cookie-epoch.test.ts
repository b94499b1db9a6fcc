import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  sessionCookieFrom,
  type TestStore,
} from '../../test-support/test-store.js';

const EMAIL = 'owner@shop.example';
const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a brand new password';
const json = { 'content-type': 'application/json' };

function deviceCookieFrom(res: LightMyRequestResponse): string {
  const header = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('store_device='));
  if (!header) throw new Error('no device cookie was set');
  return header.split(';')[0] ?? '';
}

describe('device cookies end with the sessions: "sign out everywhere" and a new password', () => {
  let store: TestStore;
  let app: FastifyInstance;
  afterEach(async () => {
    await app?.close();
    await store.cleanup();
  });

  async function setup() {
    store = await createTestStore();
    await createAdmin(store, EMAIL, PASSWORD);
    app = await buildTestApp(store);
  }

  const login = (password: string, from: { ip: string; cookie?: string }) =>
    app.inject({
      method: 'POST',
      url: '/api/trpc/auth.login',
      headers: { ...json, ...(from.cookie ? { cookie: from.cookie } : {}) },
      payload: JSON.stringify({ email: EMAIL, password }),
      remoteAddress: from.ip,
    });
  const post = (path: string, cookie: string, body?: unknown) =>
    app.inject({
      method: 'POST',
      url: `/api/trpc/${path}`,
      headers: { ...json, cookie },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  /** Ten wrong guesses from ten addresses: browsers unknown to the account now wait. */
  async function rotatingAttack(password = PASSWORD): Promise<void> {
    for (let i = 0; i < 10; i++) {
      expect((await login(`${password}-guess`, { ip: `192.0.2.${i}` })).statusCode).toBe(401);
    }
  }

  it('a device cookie from before "sign out everywhere" no longer passes the throttle as a known device', async () => {
    await setup();
    const signIn = await login(PASSWORD, { ip: '203.0.113.10' });
    const device = deviceCookieFrom(signIn);
    const everywhere = await post(
      'admin.account.signOutEverywhere',
      sessionCookieFrom(signIn.headers['set-cookie']),
    );
    expect(everywhere.statusCode).toBe(200);

    await rotatingAttack();
    // Known, it would be judged by its own (zero) failures and let in; now it waits like any browser.
    const res = await login(PASSWORD, { ip: '203.0.113.10', cookie: device });
    expect(res.statusCode).toBe(429);
  });

  it('a new password ends the known status of the other devices, and the browser that set it stays known', async () => {
    await setup();
    const lost = deviceCookieFrom(await login(PASSWORD, { ip: '203.0.113.10' }));
    const here = await login(PASSWORD, { ip: '203.0.113.20' });
    const change = await post('admin.account.changePassword', sessionCookieFrom(here.headers['set-cookie']), {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(change.statusCode).toBe(200);
    const renewed = deviceCookieFrom(change);

    await rotatingAttack(NEW_PASSWORD);
    expect((await login(NEW_PASSWORD, { ip: '203.0.113.10', cookie: lost })).statusCode).toBe(429);
    expect((await login(NEW_PASSWORD, { ip: '203.0.113.20', cookie: renewed })).statusCode).toBe(200);
    // The changed password is hashed at full cost (scrypt, 128 MiB): this test verifies it a dozen times,
    // about 4 s on a quiet machine and over 20 s on a busy one, so its bound is the work's, not the default.
  }, 120_000);
});
