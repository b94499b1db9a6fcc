import { TRPCError } from '@trpc/server';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import { insertSession, newSessionId, pruneSessions } from './admin-sessions.repository.js';
import { type AdminRecord, findAdminByEmail, normaliseEmail, recordLogin } from './admins.repository.js';
import { SignInThrottled } from './login-retry-after.js';
import type { Admission, LoginThrottle, SignInClient } from './login-throttle.js';
import { DEFAULT_SCRYPT, hashPassword, verifyPassword } from './password.js';
import { type SessionPolicy, type SessionPort, sessionPolicyOf } from './session.js';

export const INVALID_CREDENTIALS = 'Invalid credentials';

// Verified against when the email is unknown, so both misses cost the same time.
let dummyHash: Promise<string> | null = null;
function getDummyHash(): Promise<string> {
  dummyHash ??= hashPassword('not-a-real-password-just-for-timing', DEFAULT_SCRYPT);
  return dummyHash;
}

/** What a sign-in needs: a procedure's context has all of it. */
export type SignInDeps = {
  db: Db;
  clock: Clock;
  loginThrottle: LoginThrottle;
  session: SessionPort;
  config: { session: SessionPolicy };
  log: FastifyBaseLogger;
  ip: string;
};

/**
 * What comes after a right password: nothing (signed in), a code from the authenticator app, or turning
 * two-factor on first (ADMIN_REQUIRE_2FA).
 */
export type SignInNext = 'code' | 'enrol' | null;

export async function login(
  ctx: SignInDeps,
  email: string,
  password: string,
): Promise<{ email: string; next: SignInNext }> {
  const account = normaliseEmail(email);
  const admin = await findAdminByEmail(ctx.db, account);
  const now = ctx.clock.now();
  const claim = ctx.loginThrottle.deviceCookies.verify(ctx.session.device.read(), now);
  // A device cookie only counts for the account it was issued to, and only until that account's sessions are
  // all ended ("sign out everywhere", a new password): a lost laptop's cookie must not outlive that.
  const known = admin && claim?.adminId === admin.id && claim.epoch === admin.sessionEpoch;
  const deviceId = known ? claim.deviceId : null;
  // Only a real account's email is logged: a miss may be someone's password typed in the wrong field.
  const shown = admin ? admin.email : '(unknown)';

  const admission = await admitOrRefuse(ctx, { ip: ctx.ip, account, deviceId });
  if (!admission.allowed) {
    const { retryAfterSeconds, reason } = admission;
    ctx.log.warn(
      { event: 'admin.login.throttled', account: shown, ip: ctx.ip, reason, retryAfterSeconds },
      'sign-in refused: too many attempts',
    );
    throw new TRPCError({
      code: 'TOO_MANY_REQUESTS',
      message: `Too many sign-in attempts. Please try again in ${Math.ceil(retryAfterSeconds / 60)} minute(s).`,
      cause: new SignInThrottled(retryAfterSeconds),
    });
  }
  const { attempt } = admission;

  const ok = await verifyPassword(password, admin?.passwordHash ?? (await getDummyHash()));
  if (!admin || !ok) {
    const outcome = await settle(ctx, attempt.failed(), {
      unknownBrowsersThrottledNow: false,
      deviceLockedNow: false,
    });
    // The address is in the message so that the log table keeps one line per address (it folds repeats).
    ctx.log.warn(
      { event: 'admin.login.failed', account: shown, ip: ctx.ip, knownDevice: attempt.knownDevice },
      `sign-in failed from ${ctx.ip} (${attempt.knownDevice ? 'known device' : 'unknown browser'})`,
    );
    if (outcome.unknownBrowsersThrottledNow) {
      ctx.log.warn(
        { event: 'admin.login.unknown-browsers-throttled', account: shown, ip: ctx.ip },
        'too many failed sign-ins for this account: browsers it has not signed in from are slowed down',
      );
    }
    if (outcome.deviceLockedNow) {
      ctx.log.warn(
        { event: 'admin.login.device-locked', account: shown, ip: ctx.ip },
        'too many failed sign-ins from a known device: it is treated as unknown for the rest of the window',
      );
    }
    throw new TRPCError({ code: 'UNAUTHORIZED', message: INVALID_CREDENTIALS });
  }

  const { accountUnderAttack } = await settle(ctx, attempt.succeeded(), { accountUnderAttack: false });
  const { next } = await openSession(ctx, admin, now);
  const details = {
    event: 'admin.login',
    account: admin.email,
    ip: ctx.ip,
    knownDevice: attempt.knownDevice,
    ...(next ? { next } : {}),
  };
  if (!accountUnderAttack) {
    ctx.log.info(
      details,
      next === 'code' ? 'admin gave the password; the two-factor code is next' : 'admin signed in',
    );
  } else if (attempt.knownDevice) {
    ctx.log.warn(
      { ...details, accountUnderAttack },
      'admin signed in from a known device while other browsers are slowed down by failed sign-ins',
    );
  } else {
    // Possibly the one who made the failures, now with the right password: worth a look.
    ctx.log.warn(
      { ...details, accountUnderAttack },
      'admin signed in from an unknown browser while failed sign-ins for this account are slowed down',
    );
  }
  return { email: admin.email, next };
}

/**
 * A new session for an account whose password was just given (a sign-in, an accepted invitation), with a
 * fresh device cookie: what it still owes is the answer's `next`.
 */
export async function openSession(
  ctx: Pick<SignInDeps, 'db' | 'config' | 'session' | 'ip' | 'loginThrottle'>,
  admin: Pick<AdminRecord, 'id' | 'sessionEpoch' | 'twoFactor'>,
  now: Date,
): Promise<{ next: SignInNext }> {
  const sessionId = newSessionId();
  const policy = sessionPolicyOf(ctx.config);
  await ctx.db.transaction().execute(async (tx) => {
    await pruneSessions(tx, now, policy);
    await insertSession(tx, {
      id: sessionId,
      adminId: admin.id,
      epoch: admin.sessionEpoch,
      now,
      ip: ctx.ip,
      userAgent: ctx.session.client.userAgent,
      confirmed: !admin.twoFactor,
    });
    // A sign-in that still owes its code counts once the code is given (completeSignIn).
    if (!admin.twoFactor) await recordLogin(tx, admin.id, now);
  });
  ctx.session.write({ sessionId });
  // A fresh cookie on every sign-in: it restarts the 180 days and moves the device off a locked id. A browser
  // that gave this account's two-factor code before keeps saying so (its own budget of codes: decision 0032).
  const before = ctx.loginThrottle.deviceCookies.verify(ctx.session.device.read(), now);
  const codeGiven =
    admin.twoFactor &&
    before?.codeGiven === true &&
    before.adminId === admin.id &&
    before.epoch === admin.sessionEpoch;
  ctx.session.device.write(
    ctx.loginThrottle.deviceCookies.issue(admin.id, admin.sessionEpoch, now, { codeGiven }),
  );
  return { next: admin.twoFactor ? 'code' : policy.requireTwoFactor ? 'enrol' : null };
}

/**
 * The throttle's answer; when its counters cannot be reached (Redis or the database away), the sign-in is
 * refused: an attempt that cannot be counted could be one of unlimited guesses (decision 0017).
 */
async function admitOrRefuse(ctx: SignInDeps, client: SignInClient): Promise<Admission> {
  try {
    return await ctx.loginThrottle.admit(client);
  } catch (error) {
    ctx.log.error(
      { err: error, event: 'admin.login.throttle-unavailable', ip: ctx.ip },
      'sign-in refused: the sign-in limits cannot be checked',
    );
    throw new TRPCError({
      code: 'SERVICE_UNAVAILABLE',
      message: 'Sign-in is unavailable for a moment. Please try again shortly.',
    });
  }
}

/**
 * After the password check the attempt has been counted already, so a store failure while giving a count
 * back or announcing only costs the log line or the refund: the sign-in goes on, and the failure is logged.
 */
async function settle<T>(ctx: SignInDeps, outcome: Promise<T>, fallback: T): Promise<T> {
  try {
    return await outcome;
  } catch (error) {
    ctx.log.error(
      { err: error, event: 'admin.login.throttle-unavailable', ip: ctx.ip },
      'the sign-in limits could not record the outcome of a sign-in',
    );
    return fallback;
  }
}
