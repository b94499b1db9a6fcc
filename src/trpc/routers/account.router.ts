import { createHash } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import {
  carrySessionToCurrentEpoch,
  liveSessionsOf,
  newSessionId,
  renameSession,
  revokeSession,
} from '../../modules/auth/admin-sessions.repository.js';
import {
  adminWithPassword,
  bumpSessionEpoch,
  findAdminById,
  setAdminPassword,
} from '../../modules/auth/admins.repository.js';
import { hashPassword, passwordProblem } from '../../modules/auth/password.js';
import { currentSessionId, sessionPolicyOf } from '../../modules/auth/session.js';
import {
  admitProof,
  beginEnrolment,
  confirmEnrolment,
  confirmIdentity,
  disableTwoFactor,
  renewRecoveryCodes,
  twoFactorStatus,
} from '../../modules/auth/two-factor/two-factor.service.js';
import { describeUserAgent } from '../../modules/auth/user-agent.js';
import {
  type AdminSessionEntry,
  changePasswordInput,
  confirmIdentityInput,
  disableTwoFactorInput,
  enrolmentCodeInput,
  sessionHandleInput,
} from '../../shared/auth.js';
import { adminProcedure, router } from '../init.js';

/**
 * How the list names a session: a hash of its id. The id is what the sealed cookie carries; it stays out of
 * pages, so a screenshot or a shared screen gives nothing to replay even with the server's key.
 */
function sessionHandle(id: string): string {
  return createHash('sha256').update(id).digest('base64url').slice(0, 16);
}

/**
 * Two-factor sign-in of the admin's own account (decision 0032). `begin` and `confirm` are open to a
 * session that must enrol before anything else (ADMIN_REQUIRE_2FA).
 */
const twoFactorRouter = router({
  status: adminProcedure
    .meta({ duringEnrolment: true })
    .query(({ ctx }) => twoFactorStatus(ctx.db, ctx.admin.id)),

  /**
   * A new key for the app: the QR code's address and the key to type by hand. Needs a fresh proof, as the
   * confirmation does: a cookie alone must not be able to put its own phone on the account.
   */
  begin: adminProcedure
    .meta({ duringEnrolment: true, freshCode: true })
    .mutation(({ ctx }) => beginEnrolment(ctx, ctx.admin)),

  /** The app's first code turns two-factor on; the answer holds the ten recovery codes, shown this once. */
  confirm: adminProcedure
    .meta({ duringEnrolment: true, freshCode: true })
    .input(enrolmentCodeInput)
    .mutation(async ({ ctx, input }) => ({
      recoveryCodes: await confirmEnrolment(ctx, ctx.admin, input.code),
    })),

  disable: adminProcedure.input(disableTwoFactorInput).mutation(async ({ ctx, input }) => {
    const epoch = await disableTwoFactor(
      { ...ctx, requireTwoFactor: ctx.config.session.requireTwoFactor },
      ctx.admin,
      input,
    );
    // Every other session ended with the epoch; this browser has just given the password and a code.
    ctx.session.device.write(ctx.loginThrottle.deviceCookies.issue(ctx.admin.id, epoch, ctx.clock.now()));
    return { ok: true as const };
  }),

  recoveryCodes: adminProcedure
    .meta({ freshCode: true })
    .mutation(async ({ ctx }) => ({ recoveryCodes: await renewRecoveryCodes(ctx, ctx.admin) })),
});

/** The signed-in admin's own account: admin.account.* */
export const accountRouter = router({
  twoFactor: twoFactorRouter,

  /**
   * "Is it still you?" for the actions that need a fresh confirmation: a code with two-factor on, the
   * password without. Good for 10 minutes in this session.
   */
  confirmIdentity: adminProcedure.input(confirmIdentityInput).mutation(async ({ ctx, input }) => {
    await confirmIdentity(ctx, ctx.admin, input);
    return { ok: true as const };
  }),

  profile: adminProcedure.query(async ({ ctx }) => {
    const admin = await findAdminById(ctx.db, ctx.admin.id);
    if (!admin) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Please sign in' });
    return {
      email: admin.email,
      createdAt: admin.createdAt,
      lastLoginAt: admin.lastLoginAt,
      loginAt: ctx.admin.loginAt,
      role: admin.role,
    };
  }),

  changePassword: adminProcedure.input(changePasswordInput).mutation(async ({ ctx, input }) => {
    // Counted like a code: a cookie alone must not be a way to guess the password without limit.
    const admission = await admitProof(ctx, ctx.admin);
    const admin = await adminWithPassword(ctx.db, ctx.admin.id, input.currentPassword);
    if (!admin) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'The current password is not correct' });
    }
    await admission.succeeded();
    const problem = passwordProblem(input.newPassword);
    if (problem) throw new TRPCError({ code: 'BAD_REQUEST', message: problem });
    const now = ctx.clock.now();
    const newHash = await hashPassword(input.newPassword);
    const sessionId = currentSessionId(ctx.session);
    // The epoch bump ends every other session; this browser's session moves into the new epoch under a new
    // id, so a copy of its cookie taken before the change (the reason to change a password) is worth nothing.
    const renamed = newSessionId();
    const epoch = await ctx.db.transaction().execute(async (tx) => {
      await setAdminPassword(tx, admin.id, newHash, now);
      if (sessionId) {
        await carrySessionToCurrentEpoch(tx, sessionId, admin.id);
        await renameSession(tx, sessionId, renamed);
      }
      return (await findAdminById(tx, admin.id))?.sessionEpoch ?? admin.sessionEpoch + 1;
    });
    if (sessionId) ctx.session.write({ sessionId: renamed });
    // Device cookies of the old epoch stop counting as known; this browser has just given the password (and,
    // signed in on an account with two-factor, its code).
    ctx.session.device.write(
      ctx.loginThrottle.deviceCookies.issue(admin.id, epoch, now, { codeGiven: ctx.admin.twoFactor }),
    );
    ctx.log.info({ event: 'admin.password.changed', account: admin.email }, 'admin changed password');
    return { ok: true as const };
  }),

  /** The account's sessions that are still live: device, address, when signed in and last seen. */
  sessions: adminProcedure.query(async ({ ctx }): Promise<AdminSessionEntry[]> => {
    const current = currentSessionId(ctx.session);
    const live = await liveSessionsOf(ctx.db, ctx.admin.id, ctx.clock.now(), sessionPolicyOf(ctx.config));
    return live.map((s) => ({
      session: sessionHandle(s.id),
      device: describeUserAgent(s.userAgent),
      userAgent: s.userAgent,
      address: s.lastSeenIp ?? s.createdIp,
      signedInAt: s.createdAt,
      lastSeenAt: s.lastSeenAt,
      current: s.id === current,
    }));
  }),

  /** Signs one of the account's sessions out (this browser's too, which then needs to sign in again). */
  endSession: adminProcedure.input(sessionHandleInput).mutation(async ({ ctx, input }) => {
    const now = ctx.clock.now();
    const live = await liveSessionsOf(ctx.db, ctx.admin.id, now, sessionPolicyOf(ctx.config));
    const target = live.find((s) => sessionHandle(s.id) === input.session);
    if (!target) throw new TRPCError({ code: 'NOT_FOUND', message: 'That session has already ended' });
    await revokeSession(ctx.db, target.id, 'ended', now);
    const current = target.id === currentSessionId(ctx.session);
    if (current) ctx.session.clear();
    ctx.log.info(
      { event: 'admin.session.ended', account: ctx.admin.email, device: describeUserAgent(target.userAgent) },
      'admin ended a session',
    );
    return { ok: true as const, current };
  }),

  /**
   * The epoch bump ends every session of this admin, this one too, and every device cookie: even this browser
   * is an unknown one until its next sign-in, as a device cookie is only ever earned with the password.
   */
  signOutEverywhere: adminProcedure.mutation(async ({ ctx }) => {
    await bumpSessionEpoch(ctx.db, ctx.admin.id, ctx.clock.now());
    ctx.session.clear();
    ctx.log.info(
      { event: 'admin.signout.everywhere', account: ctx.admin.email },
      'admin signed out everywhere',
    );
    return { ok: true as const };
  }),
});
