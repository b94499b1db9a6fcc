import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  loginCookie,
  manualClock,
  sessionCookieFrom,
  type TestStore,
} from '../../test-support/test-store.js';
import { SESSION_COOKIE } from './session.js';

const EMAIL = 'owner@shop.example';
const PASSWORD = 'correct horse battery';
const json = { 'content-type': 'application/json' };

describe('each sign-in is a session the server can end on its own (admin_sessions)', () => {
  let store: TestStore;
  let app: FastifyInstance;
  afterEach(async () => {
    await app?.close();
    await store.cleanup();
  });

  async function setup(clock = manualClock()) {
    store = await createTestStore();
    await createAdmin(store, EMAIL, PASSWORD);
    app = await buildTestApp(store, { clock });
    return clock;
  }

  const post = (path: string, cookie: string, body?: unknown) =>
    app.inject({
      method: 'POST',
      url: `/api/trpc/${path}`,
      headers: { ...json, cookie },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const profile = async (cookie: string) =>
    (await app.inject({ url: '/api/trpc/admin.account.profile', headers: { cookie } })).statusCode;
  const logExport = async (cookie: string) =>
    (await app.inject({ url: '/api/admin/logs/export', headers: { cookie } })).statusCode;
  const sessionRows = () =>
    store.handle.db.selectFrom('admin_sessions').select(['id', 'last_seen_at', 'revoked_at']).execute();

  it('logout ends that session on the server: a copy of its cookie taken before gets 401 from admin procedures and admin routes', async () => {
    await setup();
    const copied = await loginCookie(app, EMAIL, PASSWORD);
    expect(await profile(copied)).toBe(200);
    expect(await logExport(copied)).toBe(200);

    expect((await post('auth.logout', copied)).statusCode).toBe(200);

    expect(await profile(copied)).toBe(401);
    expect(await logExport(copied)).toBe(401);
    const me = await app.inject({ url: '/api/trpc/auth.me', headers: { cookie: copied } });
    expect((me.json() as { result: { data: unknown } }).result.data).toBeNull();
    expect((await sessionRows()).map((r) => r.revoked_at)).toEqual(['2026-11-22T10:00:00.000Z']);
  });

  it('logout on one device leaves the admin signed in on the others', async () => {
    await setup();
    const laptop = await loginCookie(app, EMAIL, PASSWORD);
    const phone = await loginCookie(app, EMAIL, PASSWORD);
    await post('auth.logout', laptop);
    expect(await profile(laptop)).toBe(401);
    expect(await profile(phone)).toBe(200);
    expect(await logExport(phone)).toBe(200);
  });

  it('"sign out everywhere" still ends every session, the one that asked too', async () => {
    await setup();
    const a = await loginCookie(app, EMAIL, PASSWORD);
    const b = await loginCookie(app, EMAIL, PASSWORD);
    expect((await post('admin.account.signOutEverywhere', b)).statusCode).toBe(200);
    for (const cookie of [a, b]) {
      expect(await profile(cookie)).toBe(401);
      expect(await logExport(cookie)).toBe(401);
    }
    expect(await profile(await loginCookie(app, EMAIL, PASSWORD))).toBe(200);
  });

  it('a password change ends the other sessions and keeps this browser signed in under a new session id: a copy of its cookie from before gets 401', async () => {
    await setup();
    const other = await loginCookie(app, EMAIL, PASSWORD);
    const before = await loginCookie(app, EMAIL, PASSWORD);
    const idsBefore = (await sessionRows()).map((r) => r.id);
    const change = await post('admin.account.changePassword', before, {
      currentPassword: PASSWORD,
      newPassword: 'a brand new password',
    });
    expect(change.statusCode).toBe(200);
    const after = sessionCookieFrom(change.headers['set-cookie']);
    expect(after).not.toBe(before);
    expect(await profile(other)).toBe(401);
    expect(await logExport(other)).toBe(401);
    // The copy taken before the change (someone else's hands are why passwords change) opens nothing.
    expect(await profile(before)).toBe(401);
    expect(await logExport(before)).toBe(401);
    expect(await profile(after)).toBe(200);
    expect(await logExport(after)).toBe(200);
    const idsAfter = (await sessionRows()).map((r) => r.id);
    // `other`'s row stays (ended by the epoch); this browser's row now has an id nobody held before.
    expect(idsAfter.filter((id) => idsBefore.includes(id))).toHaveLength(1);
  });

  it('treats a genuine cookie from before session ids (adminId, epoch, times) as signed out, and clears it', async () => {
    await setup();
    await loginCookie(app, EMAIL, PASSWORD);
    // Sealed with the store's own key, with what the previous version wrote: accepted by it, not by this one.
    const now = Date.parse('2026-11-22T10:00:00.000Z');
    const old = app.createSecureSession({ admin: { adminId: 1, epoch: 0, issuedAt: now, lastSeenAt: now } });
    const cookie = `${SESSION_COOKIE}=${encodeURIComponent(app.encodeSecureSession(old))}`;
    expect(await logExport(cookie)).toBe(401);
    const res = await app.inject({ url: '/api/trpc/admin.account.profile', headers: { cookie } });
    expect(res.statusCode).toBe(401);
    expect(String(res.headers['set-cookie'])).toMatch(/store_session=;/);
  });

  it('keeps last-seen on the server, written at most once a minute, and times an idle session out from it', async () => {
    const clock = await setup();
    const cookie = await loginCookie(app, EMAIL, PASSWORD);
    const lastSeen = async () => (await sessionRows())[0]?.last_seen_at;
    clock.advance(59_000);
    expect(await profile(cookie)).toBe(200);
    expect(await lastSeen()).toBe('2026-11-22T10:00:00.000Z');
    clock.advance(1_000);
    const res = await app.inject({ url: '/api/trpc/admin.account.profile', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined(); // nothing to rewrite in the cookie
    expect(await lastSeen()).toBe('2026-11-22T10:01:00.000Z');

    clock.advance(2 * 60 * 60_000); // the default idle timeout, from the last-seen time the server kept
    expect(await profile(cookie)).toBe(200);
    clock.advance(2 * 60 * 60_000 + 1);
    expect(await profile(cookie)).toBe(401);
  });

  it('drops the rows no cookie can use any more at the next sign-in', async () => {
    const clock = await setup();
    const loggedOut = await loginCookie(app, EMAIL, PASSWORD);
    await post('auth.logout', loggedOut);
    const everywhere = await loginCookie(app, EMAIL, PASSWORD);
    await post('admin.account.signOutEverywhere', everywhere);
    await loginCookie(app, EMAIL, PASSWORD); // ends by its lifetime below
    clock.advance(12 * 60 * 60_000 + 1);
    const live = await loginCookie(app, EMAIL, PASSWORD);
    expect(await sessionRows()).toHaveLength(1);
    expect(await profile(live)).toBe(200);
  });
});
