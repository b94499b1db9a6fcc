import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import * as OTPAuth from 'otpauth';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  loginCookie,
  manualClock,
  type TestStore,
} from '../../test-support/test-store.js';
import { DatabaseCounterStore } from '../limits/database-counter-store.js';
import { loadSessionKeys } from './session-keys.js';
import { SecretBox } from './two-factor/secret-box.js';
import { resealWithCurrentKey, TWO_FACTOR_KEY_UNAVAILABLE } from './two-factor/two-factor.service.js';

const PASSWORD = 'correct horse battery';
const OWNER = 'owner@shop.example'; // two-factor on
const STAFF = 'packer@shop.example'; // password only: its cookies are the sessions under test
const K1 = 'k1'.repeat(20);
const K2 = 'k2'.repeat(20);

/** What one process runs with: SESSION_SECRET and SESSION_SECRET_PREVIOUS. */
type Keys = { secret: string; previous?: string };

/**
 * The rolling change of SESSION_SECRET that docs/deployment.md §9 gives, over two processes and one
 * database: first the new key joins SESSION_SECRET_PREVIOUS everywhere (one restart at a time), then it
 * becomes SESSION_SECRET (one restart at a time), then, once the old sessions have expired, the old key
 * goes. Each restart seals the two-factor secrets again at start, as main.ts does.
 */
const ROLLING: Array<{ restart: 'A' | 'B'; keys: Keys }> = [
  { restart: 'A', keys: { secret: K1, previous: K2 } },
  { restart: 'B', keys: { secret: K1, previous: K2 } },
  { restart: 'A', keys: { secret: K2, previous: K1 } },
  { restart: 'B', keys: { secret: K2, previous: K1 } },
];

describe('a rolling change of SESSION_SECRET across two processes (deployment guide §9)', () => {
  let store: TestStore;
  const clock = manualClock();
  const running: Record<'A' | 'B', { app: FastifyInstance; keys: Keys } | null> = { A: null, B: null };
  let totp: OTPAuth.TOTP;
  let ownerId: number;
  let counters: DatabaseCounterStore;

  beforeEach(async () => {
    store = await createTestStore();
    // Shared by both processes, as on PostgreSQL or with Redis, and kept across their restarts.
    counters = new DatabaseCounterStore(store.handle.db);
    ownerId = await createAdmin(store, OWNER, PASSWORD);
    await createAdmin(store, STAFF, PASSWORD, 'staff');
    const secret = randomBytes(20);
    totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromHex(secret.toString('hex')) });
    await store.handle.db
      .updateTable('admins')
      .set({ totp_secret: boxOf({ secret: K1 }).seal(secret), totp_enabled_at: '2026-11-01T00:00:00.000Z' })
      .where('id', '=', ownerId)
      .execute();
  });
  afterEach(async () => {
    for (const name of ['A', 'B'] as const) {
      await running[name]?.app.close();
      running[name] = null;
    }
    await store.cleanup();
  });

  const sessionKeys = (keys: Keys) =>
    loadSessionKeys({
      secret: keys.secret,
      previousSecrets: keys.previous ? [keys.previous] : [],
      dataDir: store.dir,
    });
  const boxOf = (keys: Keys) => new SecretBox(sessionKeys(keys));

  /** Starts (or restarts) one process: the start-up reseal first, as main.ts does, then the app. */
  async function start(name: 'A' | 'B', keys: Keys) {
    await running[name]?.app.close();
    await resealWithCurrentKey(store.handle.db, boxOf(keys));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: store.dir,
      LOG_LEVEL: 'silent',
      SESSION_SECRET: keys.secret,
      ...(keys.previous ? { SESSION_SECRET_PREVIOUS: keys.previous } : {}),
    });
    running[name] = { app: await buildTestApp(store, { clock, config, counters }), keys };
  }
  const appOf = (name: 'A' | 'B') => {
    const r = running[name];
    if (!r) throw new Error(`${name} is not running`);
    return r.app;
  };
  const profile = async (name: 'A' | 'B', cookie: string) =>
    (await appOf(name).inject({ url: '/api/trpc/admin.account.profile', headers: { cookie } })).statusCode;

  /** The owner's sign-in on one process: the password, then the app's code. */
  async function signInWithCode(name: 'A' | 'B') {
    clock.advance(30_000); // each time step's code is good once
    const app = appOf(name);
    const cookie = await loginCookie(app, OWNER, PASSWORD);
    const res = await app.inject({
      method: 'POST',
      url: '/api/trpc/auth.verifyCode',
      headers: { 'content-type': 'application/json', cookie },
      payload: JSON.stringify({ code: totp.generate({ timestamp: clock.now().getTime() }) }),
    });
    return {
      status: res.statusCode,
      message: (res.json() as { error?: { message: string } }).error?.message,
    };
  }

  /** What must hold at every phase: whatever one process sealed, the other opens. */
  async function expectNoGap(phase: string, earlierCookies: string[]) {
    for (const [from, to] of [
      ['A', 'B'],
      ['B', 'A'],
    ] as const) {
      const cookie = await loginCookie(appOf(from), STAFF, PASSWORD);
      expect({ phase, from, to, status: await profile(to, cookie) }).toMatchObject({ status: 200 });
      earlierCookies.push(cookie);

      // A two-factor key sealed by `from` (its enrolment, its sign-in's reseal, its start) opens on `to`;
      // `to`'s sign-in may seal it again, and `from` opens that.
      const sealedBy = running[from]?.keys as Keys;
      const row = await store.handle.db
        .selectFrom('admins')
        .select('totp_secret')
        .where('id', '=', ownerId)
        .executeTakeFirstOrThrow();
      const plain = boxOf(sealedBy).open(row.totp_secret ?? '');
      if (!plain) throw new Error(`${phase}: ${from} cannot open the stored key`);
      await store.handle.db
        .updateTable('admins')
        .set({ totp_secret: boxOf(sealedBy).seal(plain) })
        .where('id', '=', ownerId)
        .execute();
      expect({ phase, from, to, ...(await signInWithCode(to)) }).toMatchObject({ status: 200 });
      expect({ phase, from, to, ...(await signInWithCode(from)) }).toMatchObject({ status: 200 });
    }
    // Admins signed in at an earlier phase stay signed in on both.
    for (const cookie of earlierCookies) {
      for (const name of ['A', 'B'] as const) {
        expect({ phase, name, status: await profile(name, cookie) }).toMatchObject({ status: 200 });
      }
    }
  }

  it('has no gap: at every phase a cookie and a two-factor key sealed by either process open on the other', async () => {
    await start('A', { secret: K1 });
    await start('B', { secret: K1 });
    const cookies: string[] = [];
    await expectNoGap('before', cookies);
    for (const [i, step] of ROLLING.entries()) {
      await start(step.restart, step.keys);
      await expectNoGap(`step ${i + 1}: ${step.restart} restarted`, cookies);
    }
    // Every process now seals with K2, and the start-up reseal left no key sealed with K1: once the old
    // sessions have expired, K1 can go, one restart at a time.
    const row = await store.handle.db
      .selectFrom('admins')
      .select('totp_secret')
      .where('id', '=', ownerId)
      .executeTakeFirstOrThrow();
    expect(boxOf({ secret: K2 }).openTelling(row.totp_secret ?? '')).toMatchObject({ byOlderKey: false });
    clock.advance(13 * 3600_000); // past SESSION_TTL_HOURS: the sessions sealed with K1 have expired
    await start('A', { secret: K2 });
    await expectNoGap('K1 dropped on A', []);
    await start('B', { secret: K2 });
    await expectNoGap('K1 dropped on both', []);
  });

  it('the step the guide warns against (the new key current on one process before all know it): the other says what is wrong instead of "that code is not right"', async () => {
    await start('A', { secret: K1 });
    await start('B', { secret: K1 });
    await start('A', { secret: K2, previous: K1 }); // its start seals the two-factor key with K2
    const answer = await signInWithCode('B');
    expect(answer).toEqual({ status: 503, message: TWO_FACTOR_KEY_UNAVAILABLE });
    // Admins signed in on A look signed out on B: the gap the guide's order avoids.
    expect(await profile('B', await loginCookie(appOf('A'), STAFF, PASSWORD))).toBe(401);
    // Not counted as wrong codes (the counters are shared and outlive the restart): more tries than the
    // window allows, then B restarts with the key and lets the owner in.
    for (let i = 0; i < 10; i++) expect((await signInWithCode('B')).status).toBe(503);
    await start('B', { secret: K2, previous: K1 });
    expect((await signInWithCode('B')).status).toBe(200);
  });
});
