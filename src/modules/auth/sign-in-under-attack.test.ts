import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  manualClock,
  sessionCookieFrom,
  type TestStore,
} from '../../test-support/test-store.js';
import { LogService } from '../logs/log-service.js';

const EMAIL = 'owner@shop.example';
const PASSWORD = 'correct horse battery';
const GUESS = 'attacker-guess-0042';
const json = { 'content-type': 'application/json' };

type Row = { level: string; source: string; message: string; details: string; repeat_count: number };

/** The Cookie header for the device cookie a response set. */
function deviceCookieFrom(res: LightMyRequestResponse): string {
  const header = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('store_device='));
  if (!header) throw new Error('no device cookie was set');
  return header.split(';')[0] ?? '';
}

describe('sign-in while someone guesses the owner’s password (OWASP device cookies)', () => {
  let store: TestStore;
  let app: FastifyInstance;
  let logs: LogService;
  afterEach(async () => {
    await app?.close();
    await store.cleanup();
  });

  async function setup(opts: { env?: Record<string, string>; clock?: ReturnType<typeof manualClock> } = {}) {
    store = await createTestStore({ env: opts.env });
    await createAdmin(store, EMAIL, PASSWORD);
    logs = new LogService({ db: store.handle.db, limits: store.config.logs });
    app = await buildTestApp(store, { logService: logs, clock: opts.clock });
  }

  const login = (password: string, from: { ip: string; cookie?: string; email?: string }) =>
    app.inject({
      method: 'POST',
      url: '/api/trpc/auth.login',
      headers: { ...json, ...(from.cookie ? { cookie: from.cookie } : {}) },
      payload: JSON.stringify({ email: from.email ?? EMAIL, password }),
      remoteAddress: from.ip,
    });

  /** Wrong guesses at the owner's account, each from a new address. */
  async function rotatingAttack(count: number, firstHost = 0): Promise<void> {
    for (let i = firstHost; i < firstHost + count; i++) {
      const res = await login(GUESS, { ip: `192.0.2.${i}` });
      expect(res.statusCode).toBe(401);
      expect((res.json() as { error: { message: string } }).error.message).toBe('Invalid credentials');
    }
  }

  const rows = async (): Promise<Row[]> => {
    await logs.flush();
    return store.handle.db.selectFrom('logs').selectAll().orderBy('id').execute() as Promise<Row[]>;
  };

  it('an attacker rotating addresses gets nowhere: after 10 misses even the right password from a new address is refused, and each further try waits twice as long', async () => {
    const clock = manualClock();
    await setup({ clock });
    await rotatingAttack(10);

    const refused = await login(PASSWORD, { ip: '198.51.100.77' });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('30');
    expect(refused.body).toContain('Too many sign-in attempts');
    expect(refused.headers['set-cookie']).toBeUndefined();

    clock.advance(30_000);
    await rotatingAttack(1, 100);
    const again = await login(PASSWORD, { ip: '198.51.100.78' });
    expect(again.statusCode).toBe(429);
    expect(again.headers['retry-after']).toBe('60');
  });

  it('lets an address that missed 10 times in again with the right password once the 15 minutes are over', async () => {
    const clock = manualClock();
    await setup({ clock });
    for (let i = 0; i < 10; i++) expect((await login(GUESS, { ip: '192.0.2.1' })).statusCode).toBe(401);
    clock.advance(15 * 60_000 - 1000);
    expect((await login(PASSWORD, { ip: '192.0.2.1' })).statusCode).toBe(429);
    clock.advance(1000);
    expect((await login(PASSWORD, { ip: '192.0.2.1' })).statusCode).toBe(200);
  });

  it('a burst of parallel guesses from many addresses gets only 10 password checks, not one per request', async () => {
    await setup();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => login(GUESS, { ip: `192.0.2.${i}` })),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(10);
    expect(codes.filter((c) => c === 429)).toHaveLength(20);
  });

  it('the owner on a known device signs in with the right password during the attack, from any address, even one the attacker has used up', async () => {
    await setup();
    const earlier = await login(PASSWORD, { ip: '203.0.113.10' });
    expect(earlier.statusCode).toBe(200);
    const device = deviceCookieFrom(earlier);

    await rotatingAttack(10);
    // 20 misses from one address at other accounts use up that address for every unknown browser.
    for (let i = 0; i < 20; i++) {
      await createAdmin(store, `x${i}@shop.example`, PASSWORD);
      expect((await login(GUESS, { ip: '203.0.113.99', email: `x${i}@shop.example` })).statusCode).toBe(401);
    }
    expect((await login(PASSWORD, { ip: '198.51.100.5' })).statusCode).toBe(429);
    expect((await login(PASSWORD, { ip: '203.0.113.99', email: EMAIL })).statusCode).toBe(429);

    // A typo on the known device is an ordinary miss, not a 429.
    expect((await login('my typo', { ip: '203.0.113.99', cookie: device })).statusCode).toBe(401);
    const owner = await login(PASSWORD, { ip: '203.0.113.99', cookie: device });
    expect(owner.statusCode).toBe(200);
    const session = sessionCookieFrom(owner.headers['set-cookie']);
    const profile = await app.inject({
      url: '/api/trpc/admin.account.profile',
      headers: { cookie: session },
    });
    expect(profile.statusCode).toBe(200);
    // The sign-in renews the device cookie, and the renewed one works as well.
    const renewed = deviceCookieFrom(owner);
    expect(renewed).not.toBe(device);
    expect((await login(PASSWORD, { ip: '198.51.100.6', cookie: renewed })).statusCode).toBe(200);
  });

  it('logs each failure with its address and whether it came from a known device, the moment unknown browsers are slowed, and the owner’s sign-in during the attack; no password or cookie', async () => {
    await setup();
    const earlier = await login(PASSWORD, { ip: '203.0.113.10' });
    const device = deviceCookieFrom(earlier);
    await rotatingAttack(10);
    await login(PASSWORD, { ip: '198.51.100.5' }); // refused
    await login('my typo', { ip: '203.0.113.10', cookie: device });
    const owner = await login(PASSWORD, { ip: '203.0.113.10', cookie: device });
    expect(owner.statusCode).toBe(200);

    const all = (await rows()).filter((r) => r.source === 'admin');
    const withDetails = (message: string | RegExp) =>
      all
        .filter((r) => (typeof message === 'string' ? r.message === message : message.test(r.message)))
        .map((r) => ({ level: r.level, repeat: r.repeat_count, ...JSON.parse(r.details) }));

    expect(withDetails('sign-in failed from 192.0.2.3 (unknown browser)')).toEqual([
      {
        level: 'warning',
        repeat: 1,
        event: 'admin.login.failed',
        account: EMAIL,
        ip: '192.0.2.3',
        knownDevice: false,
      },
    ]);
    expect(withDetails(/^sign-in failed from/)).toHaveLength(11);
    expect(withDetails('sign-in failed from 203.0.113.10 (known device)')).toEqual([
      {
        level: 'warning',
        repeat: 1,
        event: 'admin.login.failed',
        account: EMAIL,
        ip: '203.0.113.10',
        knownDevice: true,
      },
    ]);
    expect(withDetails(/browsers it has not signed in from are slowed down/)).toEqual([
      {
        level: 'warning',
        repeat: 1,
        event: 'admin.login.unknown-browsers-throttled',
        account: EMAIL,
        ip: '192.0.2.9',
      },
    ]);
    expect(withDetails('sign-in refused: too many attempts')).toEqual([
      {
        level: 'warning',
        repeat: 1,
        event: 'admin.login.throttled',
        account: EMAIL,
        ip: '198.51.100.5',
        reason: 'unknown-browsers',
        retryAfterSeconds: 30,
      },
    ]);
    expect(withDetails(/^admin signed in from a known device while other browsers are slowed/)).toEqual([
      {
        level: 'warning',
        repeat: 1,
        event: 'admin.login',
        account: EMAIL,
        ip: '203.0.113.10',
        knownDevice: true,
        accountUnderAttack: true,
      },
    ]);

    const everything = JSON.stringify(await rows());
    const cookieValues = [
      device,
      deviceCookieFrom(owner),
      sessionCookieFrom(owner.headers['set-cookie']),
    ].map((c) => c.slice(c.indexOf('=') + 1));
    for (const secret of [PASSWORD, GUESS, 'my typo', ...cookieValues])
      expect(everything).not.toContain(secret);
  });

  it('sets the device cookie HttpOnly, SameSite=Lax, for the API only, for 180 days, without the email in it', async () => {
    await setup();
    const res = await login(PASSWORD, { ip: '203.0.113.10' });
    const header = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('store_device='));
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/SameSite=Lax/i);
    expect(header).toMatch(/Path=\/api\/trpc(;|$)/);
    expect(header).toMatch(/Max-Age=15552000/);
    expect(header).not.toMatch(/Secure/i);
    expect(header).not.toContain(EMAIL);
    expect(Buffer.from(deviceCookieFrom(res).split('=')[1] ?? '', 'base64url').toString()).not.toContain(
      'owner',
    );
  });

  it('marks the device cookie Secure when the store is served over https', async () => {
    await setup({ env: { PUBLIC_URL: 'https://shop.example' } });
    const res = await app.inject({
      method: 'POST',
      url: '/api/trpc/auth.login',
      headers: { ...json, origin: 'https://shop.example' },
      payload: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    const header = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('store_device='));
    expect(header).toMatch(/; Secure/);
  });

  it('a device cookie helps only the account it was issued for, and a tampered one helps nobody', async () => {
    await setup();
    await createAdmin(store, 'helper@shop.example', 'helper password 123');
    const helper = await login('helper password 123', { ip: '203.0.113.20', email: 'helper@shop.example' });
    const helperDevice = deviceCookieFrom(helper);
    const ownerDevice = deviceCookieFrom(await login(PASSWORD, { ip: '203.0.113.10' }));
    const value = ownerDevice.slice('store_device='.length);
    const last = value.at(-1) === 'A' ? 'B' : 'A';
    const tampered = `store_device=${value.slice(0, -1)}${last}`;

    await rotatingAttack(10);
    expect((await login(PASSWORD, { ip: '203.0.113.20', cookie: helperDevice })).statusCode).toBe(429);
    expect((await login(PASSWORD, { ip: '203.0.113.10', cookie: tampered })).statusCode).toBe(429);
    expect((await login(PASSWORD, { ip: '203.0.113.10', cookie: 'store_device=garbage' })).statusCode).toBe(
      429,
    );
    expect((await login(PASSWORD, { ip: '203.0.113.10', cookie: ownerDevice })).statusCode).toBe(200);
  });

  it('a known device that keeps guessing loses its pass after 10 misses of its own and is then judged like any unknown browser', async () => {
    await setup();
    const device = deviceCookieFrom(await login(PASSWORD, { ip: '203.0.113.10' }));
    for (let i = 0; i < 10; i++) {
      expect((await login(GUESS, { ip: `203.0.113.${30 + i}`, cookie: device })).statusCode).toBe(401);
    }
    // Its own misses did not slow anybody else down.
    expect((await login(PASSWORD, { ip: '198.51.100.1' })).statusCode).toBe(200);
    await rotatingAttack(10);
    expect((await login(PASSWORD, { ip: '203.0.113.10', cookie: device })).statusCode).toBe(429);
    const locked = (await rows()).filter((r) =>
      /from a known device: it is treated as unknown/.test(r.message),
    );
    expect(locked).toHaveLength(1);
  });

  it('refuses an address that missed 10 times at an account for the rest of the 15 minutes, not only the 30 s that other unknown browsers wait', async () => {
    await setup();
    for (let i = 0; i < 10; i++) expect((await login(GUESS, { ip: '192.0.2.1' })).statusCode).toBe(401);
    const same = await login(PASSWORD, { ip: '192.0.2.1' });
    expect(same.statusCode).toBe(429);
    expect(Number(same.headers['retry-after'])).toBe(15 * 60);
  });
});
