import { TRPCError } from '@trpc/server';
import { recordAdminChange } from '../../modules/audit/admin-change.js';
import { refusalsAsBadRequest } from '../../modules/auth/account-refusals.js';
import { revokeSession } from '../../modules/auth/admin-sessions.repository.js';
import { findAdminById } from '../../modules/auth/admins.repository.js';
import { login, openSession } from '../../modules/auth/auth.service.js';
import { acceptInvite, findOpenInvite, INVITE_GONE } from '../../modules/auth/invites/invites.js';
import { hashPassword, passwordProblem } from '../../modules/auth/password.js';
import { currentSessionId } from '../../modules/auth/session.js';
import { completeSignIn } from '../../modules/auth/two-factor/two-factor.service.js';
import { readStoreContacts } from '../../modules/settings/settings.repository.js';
import {
  type AdminSessionInfo,
  acceptInviteInput,
  inviteTokenInput,
  loginInput,
  type PendingSignInInfo,
  signInCodeInput,
} from '../../shared/auth.js';
import { publicProcedure, router } from '../init.js';

export const authRouter = router({
  login: publicProcedure
    .input(loginInput)
    .mutation(({ ctx, input }) => login(ctx, input.email, input.password)),

  /**
   * Ends this browser's session on the server, not only its cookie: a copy of the cookie taken before stops
   * working too. The admin's other sessions (other devices) go on.
   */
  logout: publicProcedure.mutation(async ({ ctx }) => {
    const sessionId = currentSessionId(ctx.session);
    if (sessionId) await revokeSession(ctx.db, sessionId, 'logout', ctx.clock.now());
    const who = ctx.admin ?? ctx.pendingSignIn?.admin;
    if (who) ctx.log.info({ event: 'admin.logout', account: who.email }, 'admin signed out');
    ctx.session.clear();
    return { ok: true as const };
  }),

  /**
   * The sign-in's second step: a code from the authenticator app, or a recovery code, completes the
   * session the password started. Wrong codes are throttled like passwords.
   */
  verifyCode: publicProcedure.input(signInCodeInput).mutation(async ({ ctx, input }) => {
    const pending = ctx.pendingSignIn;
    if (pending?.stage !== 'code') {
      throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Please sign in with your password first' });
    }
    await completeSignIn(ctx, pending.admin, input.code);
    return { email: pending.admin.email };
  }),

  /**
   * What an invitation link offers (the email and role), for the page that accepts it. A mutation, not a
   * query: the token travels in a POST body, never in an address a log or a cache keeps.
   */
  openInvite: publicProcedure.input(inviteTokenInput).mutation(async ({ ctx, input }) => {
    const invite = await findOpenInvite(ctx.db, input.token, ctx.clock.now());
    if (!invite) throw new TRPCError({ code: 'NOT_FOUND', message: INVITE_GONE });
    const { name } = await readStoreContacts(ctx.db);
    return { email: invite.email, role: invite.role, storeName: name };
  }),

  /** Accepts an invitation: the account is made with the chosen password and signed in. */
  acceptInvite: publicProcedure.input(acceptInviteInput).mutation(async ({ ctx, input }) => {
    const now = ctx.clock.now();
    // Checked before the password is hashed, so a made-up token costs no scrypt.
    if (!(await findOpenInvite(ctx.db, input.token, now))) {
      throw new TRPCError({ code: 'NOT_FOUND', message: INVITE_GONE });
    }
    const problem = passwordProblem(input.password);
    if (problem) throw new TRPCError({ code: 'BAD_REQUEST', message: problem });
    const passwordHash = await hashPassword(input.password);
    const account = await refusalsAsBadRequest(() =>
      acceptInvite(ctx.db, { token: input.token, passwordHash, now }),
    );
    const admin = await findAdminById(ctx.db, account.id);
    if (!admin) throw new TRPCError({ code: 'NOT_FOUND', message: INVITE_GONE });
    const { next } = await openSession(ctx, admin, now);
    // Not an admin procedure, so the audit is written here: the new account, by its own hand.
    await recordAdminChange(ctx, admin, 'auth.acceptInvite', { id: admin.id, role: admin.role });
    ctx.log.info(
      { event: 'admin.invite.accepted', account: admin.email, role: admin.role, ip: ctx.ip },
      'an invitation was accepted: a new admin account',
    );
    return { email: admin.email, next };
  }),

  /**
   * Who is signed in, for the client's route guard and the menu's session timer; a half-done sign-in says
   * which step it owes; null for everyone else.
   */
  me: publicProcedure.query(({ ctx }): AdminSessionInfo | PendingSignInInfo | null => {
    if (ctx.admin) {
      const { email, loginAt, role, twoFactor } = ctx.admin;
      return { stage: 'signed-in', email, loginAt, role, twoFactor };
    }
    const pending = ctx.pendingSignIn;
    return pending ? { stage: pending.stage, email: pending.admin.email } : null;
  }),
});
