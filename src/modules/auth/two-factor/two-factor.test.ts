import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import * as OTPAuth from 'otpauth';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config.js';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  fixedClock,
  manualClock,
  sessionCookieFrom,
  type TestStore,
} from '../../../test-support/test-store.js';
import { DatabaseCounterStore } from '../../limits/database-counter-store.js';
import { MemoryCounterStore } from '../../limits/memory-counter-store.js';
import { LoginThrottle } from '../login-throttle.js';
import { SecretBox } from './secret-box.js';
import { checkSecondFactor, TWO_FACTOR_KEY_UNAVAILABLE } from './two-factor.service.js';

const PASSWORD = 'correct horse battery';
const OWNER = 'owner@shop.example';

type Answer = { status: number; data: unknown; message: string | undefined; cookie: string | null };

/** Two-factor sign-in over HTTP, with codes made by `otpauth` (an implementation of RFC 6238 not ours). */
describe('two-factor sign-in', () => {
  let store: TestStore;
  let app: FastifyInstance;
  let clock: ReturnType<typeof manualClock>;

  async function start(env: Record<string, string> = {}) {
    store = await createTestStore({ env });
    clock = manualClock();
    await createAdmin(store, OWNER, PASSWORD);
    await createAdmin(store, 'packer@shop.example', PASSWORD, 'staff');
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: store.dir, LOG_LEVEL: 'silent', ...env });
    app = await buildTestApp(store, { clock, config });
  }
  beforeEach(() => start());
  afterEach(async () => {
    await app.close();
    await store.cleanup();
  });

  async function call(path: string, opts: { cookie?: string; input?: unknown; query?: boolean } = {}) {
    const headers = { 'content-type': 'application/json', ...(opts.cookie ? { cookie: opts.cookie } : {}) };
    const res = opts.query
      ? await app.inject({ url: `/api/trpc/${path}`, headers })
      : await app.inject({
          method: 'POST',
          url: `/api/trpc/${path}`,
          headers,
          payload: JSON.stringify(opts.input ?? {}),
        });
    const body = res.json() as { result?: { data: unknown }; error?: { message: string } };
    const setCookie = [res.headers['set-cookie'] ?? []].flat().some((c) => c.startsWith('store_session='));
    return {
      status: res.statusCode,
      data: body.result?.data,
      message: body.error?.message,
      cookie: setCookie ? sessionCookieFrom(res.headers['set-cookie']) : null,
      retryAfter: res.headers['retry-after'],
    } satisfies Answer & { retryAfter: unknown };
  }
  const signIn = async (email = OWNER, password = PASSWORD) => {
    const res = await call('auth.login', { input: { email, password } });
    if (!res.cookie) throw new Error(`no cookie: ${res.status} ${res.message}`);
    return { ...res, cookie: res.cookie };
  };
  const me = async (cookie: string) => (await call('auth.me', { cookie, query: true })).data;
  const profile = async (cookie: string) =>
    (await call('admin.account.profile', { cookie, query: true })).status;

  /** Turns two-factor on for the signed-in account; the app's TOTP and the recovery codes. */
  async function enrol(cookie: string) {
    const begun = await call('admin.account.twoFactor.begin', { cookie });
    expect(begun.status).toBe(200);
    const { uri, key } = begun.data as { uri: string; key: string };
    const totp = OTPAuth.URI.parse(uri) as OTPAuth.TOTP;
    expect(totp.secret.base32).toBe(key);
    const confirmed = await call('admin.account.twoFactor.confirm', {
      cookie,
      input: { code: totp.generate({ timestamp: clock.now().getTime() }) },
    });
    expect(confirmed.status).toBe(200);
    return { totp, key, recoveryCodes: (confirmed.data as { recoveryCodes: string[] }).recoveryCodes };
  }
  const codeNow = (totp: OTPAuth.TOTP) => totp.generate({ timestamp: clock.now().getTime() });

  /** A browser's cookies (the session's and the device's), kept from every answer as a browser keeps them. */
  type Browser = Map<string, string>;
  async function callIn(b: Browser, path: string, input?: unknown, method: 'GET' | 'POST' = 'POST') {
    const cookie = [...b].map(([name, value]) => `${name}=${value}`).join('; ');
    const res = await app.inject({
      method,
      url: `/api/trpc/${path}`,
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      ...(method === 'POST' ? { payload: JSON.stringify(input ?? {}) } : {}),
    });
    for (const header of [res.headers['set-cookie'] ?? []].flat()) {
      const pair = header.split(';')[0] ?? '';
      const at = pair.indexOf('=');
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
      if (value === '') b.delete(name);
      else b.set(name, value);
    }
    const body = res.json() as { result?: { data: unknown } };
    return { status: res.statusCode, data: body.result?.data, retryAfter: res.headers['retry-after'] };
  }

  it('enrols with a QR address and a key, confirmed by a code, and gives ten recovery codes kept as hashes', async () => {
    const { cookie } = await signIn();
    const begun = await call('admin.account.twoFactor.begin', { cookie });
    const { uri } = begun.data as { uri: string; key: string };
    expect(uri).toMatch(/^otpauth:\/\/totp\/[^?]+:owner%40shop\.example\?/);
    const totp = OTPAuth.URI.parse(uri) as OTPAuth.TOTP;
    expect([totp.digits, totp.period, totp.algorithm]).toEqual([6, 30, 'SHA1']);

    const wrong = await call('admin.account.twoFactor.confirm', { cookie, input: { code: '000000' } });
    expect(wrong.status).toBe(400);
    expect((await call('admin.account.twoFactor.status', { cookie, query: true })).data).toMatchObject({
      enabled: false,
    });

    const confirmed = await call('admin.account.twoFactor.confirm', {
      cookie,
      input: { code: codeNow(totp) },
    });
    const codes = (confirmed.data as { recoveryCodes: string[] }).recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-hj-km-np-z2-9]{4}(-[a-hj-km-np-z2-9]{4}){3}$/);
    expect((await call('admin.account.twoFactor.status', { cookie, query: true })).data).toMatchObject({
      enabled: true,
      recoveryCodesLeft: 10,
    });
    // The session that enrolled goes on working; nothing stored gives the key or a code away.
    expect(await profile(cookie)).toBe(200);
    const stored = JSON.stringify(await store.handle.db.selectFrom('admins').selectAll().execute());
    const hashes = JSON.stringify(
      await store.handle.db.selectFrom('admin_recovery_codes').selectAll().execute(),
    );
    expect(stored).not.toContain(totp.secret.base32);
    expect(stored).not.toContain(totp.secret.hex);
    for (const code of codes) expect(hashes).not.toContain(code.replaceAll('-', ''));
  });

  it('asks for the code after the password, and only the code completes the sign-in', async () => {
    const { totp } = await enrol((await signIn()).cookie);
    clock.advance(60_000);
    const first = await signIn();
    expect(first.data).toEqual({ email: OWNER, next: 'code' });
    expect(await me(first.cookie)).toEqual({ stage: 'code', email: OWNER });
    expect(await profile(first.cookie)).toBe(401);
    expect((await call('admin.products.newId', { cookie: first.cookie, query: true })).status).toBe(401);

    const wrong = await call('auth.verifyCode', { cookie: first.cookie, input: { code: '123456' } });
    expect([wrong.status, wrong.message]).toEqual([
      400,
      'That code is not right, or it has been used already.',
    ]);
    const lastLogin = async () =>
      (
        await store.handle.db
          .selectFrom('admins')
          .select('last_login_at')
          .where('email', '=', OWNER)
          .executeTakeFirstOrThrow()
      ).last_login_at;
    const before = await lastLogin();
    const right = await call('auth.verifyCode', { cookie: first.cookie, input: { code: codeNow(totp) } });
    expect(right.status).toBe(200);
    // The session goes on under a new id: the half-signed-in cookie opens nothing any more.
    const cookie = right.cookie as string;
    expect(cookie).not.toBe(first.cookie);
    expect(await me(cookie)).toMatchObject({ stage: 'signed-in', twoFactor: true });
    expect(await profile(cookie)).toBe(200);
    expect(await profile(first.cookie)).toBe(401);
    // The sign-in counts once the code is given, not at the password.
    expect(before).not.toBe(clock.now().toISOString());
    expect(await lastLogin()).toBe(clock.now().toISOString());
  });

  it('refuses a code used already in its time window, and takes the next window’s', async () => {
    const { totp } = await enrol((await signIn()).cookie);
    clock.advance(60_000);
    const code = codeNow(totp);
    const a = await signIn();
    expect((await call('auth.verifyCode', { cookie: a.cookie, input: { code } })).status).toBe(200);
    const b = await signIn();
    const replay = await call('auth.verifyCode', { cookie: b.cookie, input: { code } });
    expect(replay.status).toBe(400);
    expect(await profile(b.cookie)).toBe(401);
    clock.advance(30_000);
    expect((await call('auth.verifyCode', { cookie: b.cookie, input: { code: codeNow(totp) } })).status).toBe(
      200,
    );
  });

  it('takes each recovery code once', async () => {
    const { recoveryCodes } = await enrol((await signIn()).cookie);
    const [code] = recoveryCodes as [string];
    const a = await signIn();
    // Typed in capitals, with spaces: still the code.
    const typed = `${code.toUpperCase().slice(0, 9)} ${code.toUpperCase().slice(9)}`;
    const given = await call('auth.verifyCode', { cookie: a.cookie, input: { code: typed } });
    expect(given.status).toBe(200);
    expect(
      (await call('admin.account.twoFactor.status', { cookie: given.cookie as string, query: true })).data,
    ).toMatchObject({
      recoveryCodesLeft: 9,
    });
    const b = await signIn();
    expect((await call('auth.verifyCode', { cookie: b.cookie, input: { code } })).status).toBe(400);
  });

  it('throttles wrong codes like passwords: the right one waits too, with Retry-After', async () => {
    const { totp } = await enrol((await signIn()).cookie);
    clock.advance(60_000);
    const { cookie } = await signIn();
    for (let i = 0; i < 10; i++) {
      expect((await call('auth.verifyCode', { cookie, input: { code: '000000' } })).status).toBe(400);
    }
    const refused = await call('auth.verifyCode', { cookie, input: { code: codeNow(totp) } });
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(await profile(cookie)).toBe(401);
  });

  it('lets a half-done sign-in wait 10 minutes for its code, then wants the password again', async () => {
    const { totp } = await enrol((await signIn()).cookie);
    const { cookie } = await signIn();
    clock.advance(10 * 60_000 + 1000);
    expect(await me(cookie)).toBeNull();
    expect((await call('auth.verifyCode', { cookie, input: { code: codeNow(totp) } })).status).toBe(401);
  });

  it('turns off only with the password and a code', async () => {
    const { cookie } = await signIn();
    const { totp } = await enrol(cookie);
    clock.advance(60_000);
    const wrongPassword = await call('admin.account.twoFactor.disable', {
      cookie,
      input: { password: 'not the password', code: codeNow(totp) },
    });
    expect(wrongPassword.status).toBe(400);
    const wrongCode = await call('admin.account.twoFactor.disable', {
      cookie,
      input: { password: PASSWORD, code: '000000' },
    });
    expect(wrongCode.status).toBe(400);
    clock.advance(30_000);
    const off = await call('admin.account.twoFactor.disable', {
      cookie,
      input: { password: PASSWORD, code: codeNow(totp) },
    });
    expect(off.status).toBe(200);
    expect((await signIn()).data).toEqual({ email: OWNER, next: null });
  });

  it('a session signed in before the account enrolled owes a code too', async () => {
    const laptop = await signIn();
    const phone = await signIn();
    const { totp } = await enrol(phone.cookie);
    expect(await me(laptop.cookie)).toEqual({ stage: 'code', email: OWNER });
    expect(await profile(laptop.cookie)).toBe(401);
    clock.advance(30_000);
    const given = await call('auth.verifyCode', { cookie: laptop.cookie, input: { code: codeNow(totp) } });
    expect(given.status).toBe(200);
    expect(await profile(given.cookie as string)).toBe(200);
  });

  it('turning it off ends the other sessions: one waiting at the code step is not let in', async () => {
    const { cookie } = await signIn();
    const { totp } = await enrol(cookie);
    clock.advance(30_000);
    const waiting = await signIn();
    expect(await me(waiting.cookie)).toEqual({ stage: 'code', email: OWNER });
    const off = await call('admin.account.twoFactor.disable', {
      cookie,
      input: { password: PASSWORD, code: codeNow(totp) },
    });
    expect(off.status).toBe(200);
    expect(await me(waiting.cookie)).toBeNull();
    expect(await profile(waiting.cookie)).toBe(401);
    expect(await profile(cookie)).toBe(200);
  });

  it('asks for a fresh proof before setting up: a cookie alone cannot put its own phone on the account', async () => {
    const { cookie } = await signIn();
    clock.advance(11 * 60_000);
    expect((await call('admin.account.twoFactor.begin', { cookie })).status).toBe(412);
    expect(
      (await call('admin.account.confirmIdentity', { cookie, input: { password: PASSWORD } })).status,
    ).toBe(200);
    expect((await call('admin.account.twoFactor.begin', { cookie })).status).toBe(200);
  });

  it('counts a wrong current password when changing it, as a wrong code', async () => {
    const { cookie } = await signIn();
    const change = (currentPassword: string) =>
      call('admin.account.changePassword', {
        cookie,
        input: { currentPassword, newPassword: 'a new long password for the owner' },
      });
    for (let i = 0; i < 10; i++) expect((await change('not the password')).status).toBe(400);
    expect((await change(PASSWORD)).status).toBe(429);
  });

  it('caps wrong codes per day, below the window’s limit too', async () => {
    const { totp } = await enrol((await signIn()).cookie);
    for (let window = 0; window < 5; window++) {
      clock.advance(16 * 60_000);
      const { cookie } = await signIn();
      for (let i = 0; i < 10; i++) {
        expect((await call('auth.verifyCode', { cookie, input: { code: '000000' } })).status).toBe(400);
      }
    }
    clock.advance(16 * 60_000);
    const { cookie } = await signIn();
    const refused = await call('auth.verifyCode', { cookie, input: { code: codeNow(totp) } });
    expect(refused.status).toBe(429);
    // About a day: it runs from the first code counted, the enrolment's (given back), 96 minutes ago.
    expect(Number(refused.retryAfter)).toBe(24 * 3600 - 96 * 60);
  });

  it('lets the owner in while someone with the password spends the day’s codes: a browser that gave a code before, and a recovery code on its own strict counter', async () => {
    // Counted in the database of the engine under test, as a store of several processes does.
    await app.close();
    app = await buildTestApp(store, { clock, counters: new DatabaseCounterStore(store.handle.db) });
    const signInAndCode = async (b: Browser, code: string) => {
      expect((await callIn(b, 'auth.login', { email: OWNER, password: PASSWORD })).status).toBe(200);
      return callIn(b, 'auth.verifyCode', { code });
    };

    // The owner set two-factor up in this browser, and signed out: the device cookie stays.
    const owner: Browser = new Map();
    expect((await callIn(owner, 'auth.login', { email: OWNER, password: PASSWORD })).status).toBe(200);
    const begun = await callIn(owner, 'admin.account.twoFactor.begin');
    const totp = OTPAuth.URI.parse((begun.data as { uri: string }).uri) as OTPAuth.TOTP;
    const confirmed = await callIn(owner, 'admin.account.twoFactor.confirm', { code: codeNow(totp) });
    const [recovery, secondRecovery] = (confirmed.data as { recoveryCodes: string[] }).recoveryCodes as [
      string,
      string,
    ];
    expect((await callIn(owner, 'auth.logout')).status).toBe(200);

    // Someone with the password spends the account's 50 wrong codes, from browsers of their own.
    for (let window = 0; window < 5; window++) {
      clock.advance(16 * 60_000);
      const attacker: Browser = new Map();
      expect((await callIn(attacker, 'auth.login', { email: OWNER, password: PASSWORD })).status).toBe(200);
      for (let i = 0; i < 10; i++) {
        expect((await callIn(attacker, 'auth.verifyCode', { code: '000000' })).status).toBe(400);
      }
    }
    clock.advance(16 * 60_000);
    const shut = await signInAndCode(new Map(), codeNow(totp));
    expect(shut.status).toBe(429);
    expect(Number(shut.retryAfter)).toBeGreaterThan(22 * 3600);

    // The owner's own browser has a budget of its own: the right code signs in, and confirms an action.
    expect((await signInAndCode(owner, codeNow(totp))).status).toBe(200);
    expect((await callIn(owner, 'admin.account.profile', undefined, 'GET')).status).toBe(200);
    clock.advance(11 * 60_000);
    expect((await callIn(owner, 'admin.account.confirmIdentity', { code: codeNow(totp) })).status).toBe(200);

    // From a browser the account does not know, a recovery code still works: the wrong app codes are
    // not counted against it.
    expect((await signInAndCode(new Map(), recovery)).status).toBe(200);

    // The recovery codes' own counter is strict: ten wrong ones a day, then even a right one waits.
    const guesser: Browser = new Map();
    expect((await callIn(guesser, 'auth.login', { email: OWNER, password: PASSWORD })).status).toBe(200);
    for (let i = 0; i < 10; i++) {
      expect((await callIn(guesser, 'auth.verifyCode', { code: 'aaaa-aaaa-aaaa-aaaa' })).status).toBe(400);
    }
    const capped = await callIn(guesser, 'auth.verifyCode', { code: secondRecovery });
    expect(capped.status).toBe(429);
    expect(Number(capped.retryAfter)).toBe(24 * 3600);
  });

  it("an owner's reset turns another account's two-factor off and ends its sessions", async () => {
    const owner = await signIn();
    const packer = await signIn('packer@shop.example');
    await enrol(packer.cookie);
    const packerId = (
      await store.handle.db
        .selectFrom('admins')
        .select('id')
        .where('email', '=', 'packer@shop.example')
        .executeTakeFirstOrThrow()
    ).id;
    expect(
      (await call('admin.team.resetTwoFactor', { cookie: packer.cookie, input: { id: packerId } })).status,
    ).toBe(403);
    expect(
      (await call('admin.team.resetTwoFactor', { cookie: owner.cookie, input: { id: packerId } })).status,
    ).toBe(200);
    expect(await profile(packer.cookie)).toBe(401);
    expect((await signIn('packer@shop.example')).data).toEqual({ email: 'packer@shop.example', next: null });
  });
});

describe('with ADMIN_REQUIRE_2FA', () => {
  let store: TestStore;
  let app: FastifyInstance;
  const clock = manualClock();
  beforeEach(async () => {
    const env = { ADMIN_REQUIRE_2FA: 'true' };
    store = await createTestStore({ env });
    await createAdmin(store, OWNER, PASSWORD);
    app = await buildTestApp(store, { clock });
  });
  afterEach(async () => {
    await app.close();
    await store.cleanup();
  });

  it('an account without two-factor must enrol before anything else, and cannot turn it off', async () => {
    const login = await app.inject({
      method: 'POST',
      url: '/api/trpc/auth.login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: OWNER, password: PASSWORD }),
    });
    expect(login.json()).toMatchObject({ result: { data: { next: 'enrol' } } });
    const cookie = sessionCookieFrom(login.headers['set-cookie']);
    const headers = { cookie, 'content-type': 'application/json' };
    const list = () => app.inject({ url: '/api/trpc/admin.account.profile', headers });
    expect((await list()).statusCode).toBe(403);
    expect((await list()).json()).toMatchObject({
      error: { message: 'Set up two-factor sign-in first: this shop requires it.' },
    });
    const me = await app.inject({ url: '/api/trpc/auth.me', headers });
    expect(me.json()).toMatchObject({ result: { data: { stage: 'enrol', email: OWNER } } });

    const begun = await app.inject({
      method: 'POST',
      url: '/api/trpc/admin.account.twoFactor.begin',
      headers,
      payload: '{}',
    });
    const totp = OTPAuth.URI.parse(
      (begun.json() as { result: { data: { uri: string } } }).result.data.uri,
    ) as OTPAuth.TOTP;
    const code = totp.generate({ timestamp: clock.now().getTime() });
    const confirmed = await app.inject({
      method: 'POST',
      url: '/api/trpc/admin.account.twoFactor.confirm',
      headers,
      payload: JSON.stringify({ code }),
    });
    expect(confirmed.statusCode).toBe(200);
    expect((await list()).statusCode).toBe(200);

    clock.advance(30_000);
    const off = await app.inject({
      method: 'POST',
      url: '/api/trpc/admin.account.twoFactor.disable',
      headers,
      payload: JSON.stringify({
        password: PASSWORD,
        code: totp.generate({ timestamp: clock.now().getTime() }),
      }),
    });
    expect(off.statusCode).toBe(400);
    expect(off.json()).toMatchObject({
      error: { message: 'This shop requires two-factor sign-in for every admin' },
    });
  });
});

describe('a two-factor key sealed with a session key this process does not hold', () => {
  it('says what is wrong, and does not count the code as a wrong one', async () => {
    const store = await createTestStore();
    try {
      const id = await createAdmin(store, OWNER, PASSWORD);
      const [newerKey, ownKey, secret] = [randomBytes(32), randomBytes(32), randomBytes(20)];
      await store.handle.db
        .updateTable('admins')
        .set({
          totp_secret: new SecretBox([newerKey, ownKey]).seal(secret),
          totp_enabled_at: '2026-11-01T00:00:00.000Z',
        })
        .where('id', '=', id)
        .execute();
      const counters = new MemoryCounterStore();
      const loginThrottle = new LoginThrottle({ counters, now: () => fixedClock.now().getTime() });
      const lines: string[] = [];
      const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
      const stale = store.context({ secrets: new SecretBox([ownKey]), loginThrottle, log });
      const app = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromHex(secret.toString('hex')) });
      const code = app.generate({ timestamp: fixedClock.now().getTime() });
      // More tries than the window allows wrong codes: none of them is counted.
      for (let i = 0; i < 12; i++) {
        await expect(checkSecondFactor(stale, { id, email: OWNER }, code)).rejects.toMatchObject({
          code: 'SERVICE_UNAVAILABLE',
          message: TWO_FACTOR_KEY_UNAVAILABLE,
        });
      }
      for (const key of [`login:code:${id}`, `login:code-day:${id}`]) {
        expect(await counters.peek(key, fixedClock.now().getTime())).toBeNull();
      }
      expect(lines.join('\n')).toMatch(/sealed with a session key this process does not hold/);
      // Restarted with the current key, the same code is right.
      const restarted = store.context({ secrets: new SecretBox([newerKey, ownKey]), loginThrottle });
      expect(await checkSecondFactor(restarted, { id, email: OWNER }, code)).toBe('app');
    } finally {
      await store.cleanup();
    }
  });
});

describe('a rotated session key', () => {
  it('opens a key sealed with the previous one, and seals it again with the current one', async () => {
    const store = await createTestStore();
    try {
      const id = await createAdmin(store, OWNER, PASSWORD);
      const [oldKey, newKey, secret] = [randomBytes(32), randomBytes(32), randomBytes(20)];
      await store.handle.db
        .updateTable('admins')
        .set({
          totp_secret: new SecretBox([oldKey]).seal(secret),
          totp_enabled_at: '2026-11-01T00:00:00.000Z',
        })
        .where('id', '=', id)
        .execute();
      const ctx = store.context({ secrets: new SecretBox([newKey, oldKey]) });
      const app = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromHex(secret.toString('hex')) });
      const code = app.generate({ timestamp: ctx.clock.now().getTime() });
      expect(await checkSecondFactor(ctx, { id, email: OWNER }, code)).toBe('app');
      const row = await store.handle.db
        .selectFrom('admins')
        .select('totp_secret')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(new SecretBox([newKey]).open(row.totp_secret ?? '')).toEqual(secret);
    } finally {
      await store.cleanup();
    }
  });
});
