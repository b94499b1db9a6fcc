import { TRPCError } from '@trpc/server';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../../core/clock.js';
import type { Db } from '../../../db/database.js';
import { readStoreContacts } from '../../settings/settings.repository.js';
import {
  carrySessionToCurrentEpoch,
  markSessionConfirmed,
  newSessionId,
  renameSession,
} from '../admin-sessions.repository.js';
import { adminWithPassword, bumpSessionEpoch, findAdminById, recordLogin } from '../admins.repository.js';
import { SignInThrottled } from '../login-retry-after.js';
import type { LoginThrottle } from '../login-throttle.js';
import type { AdminIdentity, SessionPort } from '../session.js';
import { newRecoveryCodes, RECOVERY_CODE_PATTERN, recoveryCodeHash } from './recovery-codes.js';
import type { SecretBox } from './secret-box.js';
import { base32Encode, matchingStep, newTotpSecret, otpauthUri } from './totp.js';
import {
  claimStep,
  clearTwoFactor,
  enableTwoFactor,
  readTwoFactor,
  replaceRecoveryCodes,
  replaceSealed,
  resealSecret,
  sealedSecrets,
  setPendingSecret,
  spendRecoveryCode,
  unusedRecoveryCodes,
} from './two-factor.repository.js';

/** What the two-factor steps need: a procedure's context has all of it. */
export type TwoFactorDeps = {
  db: Db;
  clock: Clock;
  secrets: SecretBox;
  loginThrottle: LoginThrottle;
  log: FastifyBaseLogger;
  ip: string;
  /** The browser's device cookie: one that has given this account's code has its own budget of codes. */
  session: Pick<SessionPort, 'device'>;
};

/**
 * What an admin sees when this process cannot open the account's two-factor key: another process runs with
 * a newer session key and sealed it again (a rolling restart half done). Not the admin's mistake, so not
 * "that code is not right", and not counted as a wrong code.
 */
export const TWO_FACTOR_KEY_UNAVAILABLE =
  'Two-factor sign-in is unavailable on this server until it restarts with the current session key; try again shortly (a recovery code works meanwhile).';

type Account = Pick<AdminIdentity, 'id' | 'email'>;

export const WRONG_CODE = 'That code is not right, or it has been used already.';

/** Where the account stands, for its profile page. */
export async function twoFactorStatus(db: Db, adminId: number) {
  const row = await readTwoFactor(db, adminId);
  return {
    enabled: Boolean(row?.enabledAt),
    enabledAt: row?.enabledAt ?? null,
    recoveryCodesLeft: row?.enabledAt ? await unusedRecoveryCodes(db, adminId) : 0,
  };
}

/**
 * A new secret for the account's authenticator app, kept sealed as the one waiting for its first code:
 * two-factor is not on until confirmEnrolment has seen a code made from it.
 */
export async function beginEnrolment(deps: TwoFactorDeps, account: Account) {
  const row = await readTwoFactor(deps.db, account.id);
  if (row?.enabledAt) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: 'Two-factor sign-in is already on for this account',
    });
  }
  const secret = newTotpSecret();
  await setPendingSecret(deps.db, account.id, deps.secrets.seal(secret), deps.clock.now());
  const { name } = await readStoreContacts(deps.db);
  return {
    key: base32Encode(secret),
    uri: otpauthUri({ issuer: name, account: account.email, secret }),
  };
}

/**
 * Turns two-factor on once the app's first code is right, with ten new recovery codes (shown this once,
 * kept as hashes); the session that did it counts as having given its code.
 */
export async function confirmEnrolment(
  deps: TwoFactorDeps,
  account: Account & { sessionId: string },
  code: string,
): Promise<string[]> {
  const row = await readTwoFactor(deps.db, account.id);
  if (row?.enabledAt) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: 'Two-factor sign-in is already on for this account',
    });
  }
  const pending = row?.pendingSecret ?? null;
  const secret = pending === null ? null : deps.secrets.open(pending);
  if (pending === null || secret === null) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: 'Start the set-up again: no key is waiting for a code',
    });
  }
  const admission = await admitProof(deps, account);
  const now = deps.clock.now();
  const step = matchingStep(secret, code.trim(), now.getTime());
  if (step === null) {
    deps.log.warn(
      { event: 'admin.2fa.failed', account: account.email, ip: deps.ip, during: 'enrolment' },
      'wrong two-factor code',
    );
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message:
        'That code is not right. Check that the time on your phone is set automatically, and enter the newest code.',
    });
  }
  const codes = newRecoveryCodes();
  const enabled = await deps.db.transaction().execute(async (tx) => {
    if (!(await enableTwoFactor(tx, account.id, { pendingSecret: pending, step, now }))) return false;
    await replaceRecoveryCodes(tx, account.id, codes.map(recoveryCodeHash));
    await markSessionConfirmed(tx, account.sessionId, now, 'code');
    return true;
  });
  if (!enabled) {
    throw new TRPCError({
      code: 'CONFLICT',
      message: 'The set-up was started again elsewhere: use the newest key',
    });
  }
  await admission.succeeded();
  await markDeviceCodeGiven(deps, account.id, now);
  deps.log.info(
    { event: 'admin.2fa.enabled', account: account.email, ip: deps.ip },
    'admin turned two-factor sign-in on',
  );
  return codes;
}

/**
 * Checks a code from the authenticator app (each time step's code is good once) or a recovery code (each
 * good once), counted by the code throttle. Throws a clear refusal; returns which kind was right.
 */
export async function checkSecondFactor(
  deps: TwoFactorDeps,
  account: Account,
  code: string,
): Promise<'app' | 'recovery'> {
  const row = await readTwoFactor(deps.db, account.id);
  if (!row?.enabledAt || row.secret === null) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'Two-factor sign-in is not on for this account' });
  }
  const given = code.trim();
  const appCode = /^\d{6}$/.test(given);
  const recoveryCode = !appCode && RECOVERY_CODE_PATTERN.test(given);
  const opened = appCode ? deps.secrets.openTelling(row.secret) : null;
  if (appCode && opened === null) throw keyUnavailable(deps, account);
  // Recovery codes have their own strict counter, which wrong app codes do not spend (decision 0032).
  const admission = await admitProof(deps, account, recoveryCode ? 'recovery' : 'code');
  const now = deps.clock.now();
  let kind: 'app' | 'recovery' | null = null;
  let replayed = false;
  if (opened) {
    // Sealed with a session key that is being rotated out: sealed again with the current one, so the
    // account keeps working once the old key is dropped.
    if (opened.byOlderKey)
      await resealSecret(deps.db, account.id, row.secret, deps.secrets.seal(opened.plain));
    const step = matchingStep(opened.plain, given, now.getTime());
    if (step !== null) {
      if (await claimStep(deps.db, account.id, step)) kind = 'app';
      else replayed = true;
    }
  } else if (recoveryCode) {
    if (await spendRecoveryCode(deps.db, account.id, recoveryCodeHash(given), now)) kind = 'recovery';
  }
  if (kind === null) {
    deps.log.warn(
      { event: 'admin.2fa.failed', account: account.email, ip: deps.ip, replayed },
      replayed ? 'a two-factor code was used a second time' : 'wrong two-factor code',
    );
    throw new TRPCError({ code: 'BAD_REQUEST', message: WRONG_CODE });
  }
  await admission.succeeded();
  if (kind === 'recovery') {
    const left = await unusedRecoveryCodes(deps.db, account.id);
    deps.log.warn(
      { event: 'admin.2fa.recovery-used', account: account.email, ip: deps.ip, left },
      `a recovery code was used (${left} left)`,
    );
  }
  return kind;
}

/**
 * The account's key was sealed with a session key this process does not hold: the operator's log says so
 * and what to do; the admin is told to try again shortly. Nothing was guessed, so nothing is counted.
 */
function keyUnavailable(deps: TwoFactorDeps, account: Account): TRPCError {
  deps.log.error(
    { event: 'admin.2fa.secret-unreadable', account: account.email },
    "the account's two-factor key was sealed with a session key this process does not hold: another process " +
      'runs with a newer SESSION_SECRET. Restart this one with the current SESSION_SECRET (and the old key in ' +
      'SESSION_SECRET_PREVIOUS); if no process holds that key any more, the admin needs a recovery code or reset-2fa',
  );
  return new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: TWO_FACTOR_KEY_UNAVAILABLE });
}

/**
 * This browser has given the account's code: its device cookie says so from now on, so it keeps a budget of
 * codes of its own when someone with the password spends the account's (decision 0032).
 */
async function markDeviceCodeGiven(deps: TwoFactorDeps, adminId: number, now: Date): Promise<void> {
  const admin = await findAdminById(deps.db, adminId);
  if (!admin) return;
  deps.session.device.write(
    deps.loginThrottle.deviceCookies.issue(adminId, admin.sessionEpoch, now, { codeGiven: true }),
  );
}

/**
 * The browser's device id when its cookie says it gave this account's code before, in the account's current
 * epoch ("sign out everywhere" and a new password end that too); null otherwise.
 */
async function codeDeviceOf(
  deps: Pick<TwoFactorDeps, 'db' | 'clock' | 'loginThrottle' | 'session'>,
  adminId: number,
): Promise<string | null> {
  const claim = deps.loginThrottle.deviceCookies.verify(deps.session.device.read(), deps.clock.now());
  if (!claim?.codeGiven || claim.adminId !== adminId) return null;
  const admin = await findAdminById(deps.db, adminId);
  return admin && admin.sessionEpoch === claim.epoch ? claim.deviceId : null;
}

/**
 * The sign-in's second step: the code completes the session the password started, under a new id (the
 * half-signed-in cookie is worth nothing afterwards), and the sign-in counts as the account's last.
 */
export async function completeSignIn(
  deps: TwoFactorDeps & { session: SessionPort },
  pending: AdminIdentity,
  code: string,
): Promise<void> {
  const kind = await checkSecondFactor(deps, pending, code);
  const now = deps.clock.now();
  const sessionId = newSessionId();
  await deps.db.transaction().execute(async (tx) => {
    await renameSession(tx, pending.sessionId, sessionId);
    await markSessionConfirmed(tx, sessionId, now, 'code');
    await recordLogin(tx, pending.id, now);
  });
  deps.session.write({ sessionId });
  await markDeviceCodeGiven(deps, pending.id, now);
  deps.log.info(
    { event: 'admin.login.2fa', account: pending.email, ip: deps.ip, kind },
    'admin gave the two-factor code and is signed in',
  );
}

/**
 * "Is it still you?" before an action that needs a fresh confirmation (refunds, publishing, deleting
 * products, managing admins): a code when the account has two-factor on, else the password.
 */
export async function confirmIdentity(
  deps: TwoFactorDeps,
  admin: AdminIdentity,
  proof: { code?: string | undefined; password?: string | undefined },
): Promise<void> {
  const now = deps.clock.now();
  if (admin.twoFactor) {
    if (!proof.code)
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'Enter a code from your authenticator app' });
    await checkSecondFactor(deps, admin, proof.code);
    await markSessionConfirmed(deps.db, admin.sessionId, now, 'code');
    return;
  }
  if (!proof.password) throw new TRPCError({ code: 'BAD_REQUEST', message: 'Enter your password' });
  const admission = await admitProof(deps, admin);
  if (!(await adminWithPassword(deps.db, admin.id, proof.password))) {
    deps.log.warn(
      { event: 'admin.confirm.failed', account: admin.email, ip: deps.ip },
      'wrong password when confirming',
    );
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'The password is not correct' });
  }
  await admission.succeeded();
  await markSessionConfirmed(deps.db, admin.sessionId, now, 'password');
}

/**
 * Off again, with a code and the password; refused where the shop requires two-factor. Every other session
 * of the account ends (one may be a sign-in waiting at the code step, which would otherwise be let in
 * without one); this one stays. Answers the account's new session epoch.
 */
export async function disableTwoFactor(
  deps: TwoFactorDeps & { requireTwoFactor: boolean },
  admin: AdminIdentity,
  proof: { password: string; code: string },
): Promise<number> {
  if (deps.requireTwoFactor) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: 'This shop requires two-factor sign-in for every admin',
    });
  }
  // The code first: the throttle counts it, so the password cannot be guessed here without limit.
  await checkSecondFactor(deps, admin, proof.code);
  const record = await adminWithPassword(deps.db, admin.id, proof.password);
  if (!record) throw new TRPCError({ code: 'BAD_REQUEST', message: 'The password is not correct' });
  const now = deps.clock.now();
  const epoch = await deps.db.transaction().execute(async (tx) => {
    await clearTwoFactor(tx, admin.id, now);
    await bumpSessionEpoch(tx, admin.id, now);
    await carrySessionToCurrentEpoch(tx, admin.sessionId, admin.id);
    return (await findAdminById(tx, admin.id))?.sessionEpoch ?? record.sessionEpoch + 1;
  });
  deps.log.warn(
    { event: 'admin.2fa.disabled', account: admin.email, ip: deps.ip },
    'admin turned two-factor sign-in off',
  );
  return epoch;
}

/** Ten new recovery codes; the old ones stop working. */
export async function renewRecoveryCodes(deps: TwoFactorDeps, admin: AdminIdentity): Promise<string[]> {
  const row = await readTwoFactor(deps.db, admin.id);
  if (!row?.enabledAt) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'Two-factor sign-in is not on for this account' });
  }
  const codes = newRecoveryCodes();
  await deps.db
    .transaction()
    .execute((tx) => replaceRecoveryCodes(tx, admin.id, codes.map(recoveryCodeHash)));
  deps.log.info(
    { event: 'admin.2fa.recovery-renewed', account: admin.email },
    'admin made new recovery codes',
  );
  return codes;
}

/**
 * For a lost phone: two-factor off for another account (an owner in the Team tab, or the command line),
 * and every session of that account ended, since one of them may be on the lost device.
 */
export async function resetTwoFactor(db: Db, adminId: number, now: Date): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await clearTwoFactor(tx, adminId, now);
    await bumpSessionEpoch(tx, adminId, now);
  });
}

/**
 * Counts one proof (a code, or a password asked again of a signed-in admin) against the account's limits
 * before it is checked; `succeeded()` gives the count back. Refused past the limits (429 with Retry-After),
 * or when the counters cannot be reached (503).
 */
export async function admitProof(
  deps: Pick<TwoFactorDeps, 'db' | 'clock' | 'loginThrottle' | 'log' | 'ip' | 'session'>,
  account: Account,
  kind: 'code' | 'recovery' = 'code',
): Promise<{ succeeded(): Promise<void> }> {
  let admission: Awaited<ReturnType<LoginThrottle['admitCode']>>;
  try {
    const codeDevice = kind === 'code' ? await codeDeviceOf(deps, account.id) : null;
    admission = await deps.loginThrottle.admitCode(account.id, { kind, codeDevice });
  } catch (error) {
    deps.log.error(
      { err: error, event: 'admin.2fa.throttle-unavailable' },
      'code refused: the limits cannot be checked',
    );
    throw new TRPCError({
      code: 'SERVICE_UNAVAILABLE',
      message: 'Sign-in is unavailable for a moment. Please try again shortly.',
    });
  }
  if (!admission.allowed) {
    const { retryAfterSeconds } = admission;
    deps.log.warn(
      { event: 'admin.2fa.throttled', account: account.email, ip: deps.ip, retryAfterSeconds },
      'code refused: too many wrong codes',
    );
    throw new TRPCError({
      code: 'TOO_MANY_REQUESTS',
      message: `Too many wrong codes. Please try again in ${Math.ceil(retryAfterSeconds / 60)} minute(s).`,
      cause: new SignInThrottled(retryAfterSeconds),
    });
  }
  return admission;
}

/**
 * Every two-factor secret sealed with one of `box`'s older keys sealed again with its current one: at start
 * and before a rotation, so that dropping an older key (SESSION_SECRET_PREVIOUS removed, the next rotation)
 * never leaves an admin who has not signed in since (a sign-in seals it again too) with a secret that no
 * longer opens. Returns how many were sealed again.
 */
export async function resealWithCurrentKey(db: Db, box: SecretBox): Promise<number> {
  let resealed = 0;
  for (const { column, sealed } of await sealedSecrets(db)) {
    const opened = box.openTelling(sealed);
    if (!opened?.byOlderKey) continue;
    // Another process (or a sign-in) may have sealed it again meanwhile: counted only when this did.
    if (await replaceSealed(db, column, sealed, box.seal(opened.plain))) resealed += 1;
  }
  return resealed;
}
