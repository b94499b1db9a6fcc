import { TRPCError } from '@trpc/server';
import { changePasswordInput } from '../../shared/auth.js';
import { adminProcedure, router } from '../../trpc/init.js';
import { carrySessionToCurrentEpoch } from './admin-sessions.repository.js';
import { bumpSessionEpoch, findAdminById, setAdminPassword } from './admins.repository.js';
import { hashPassword, passwordProblem, verifyPassword } from './password.js';
import { currentSessionId } from './session.js';

/** The signed-in admin's own account: admin.account.* */
export const accountRouter = router({
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
    const admin = await findAdminById(ctx.db, ctx.admin.id);
    if (!admin || !(await verifyPassword(input.currentPassword, admin.passwordHash))) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'The current password is not correct' });
    }
    const problem = passwordProblem(input.newPassword);
    if (problem) throw new TRPCError({ code: 'BAD_REQUEST', message: problem });
    const now = ctx.clock.now();
    const newHash = await hashPassword(input.newPassword);
    const sessionId = currentSessionId(ctx.session);
    // The epoch bump ends every other session; this browser's session moves into the new epoch with it.
    const epoch = await ctx.db.transaction().execute(async (tx) => {
      await setAdminPassword(tx, admin.id, newHash, now);
      if (sessionId) await carrySessionToCurrentEpoch(tx, sessionId, admin.id);
      return (await findAdminById(tx, admin.id))?.sessionEpoch ?? admin.sessionEpoch + 1;
    });
    // Device cookies of the old epoch stop counting as known; this browser has just given the password.
    ctx.session.device.write(ctx.loginThrottle.deviceCookies.issue(admin.id, epoch, now));
    ctx.log.info({ event: 'admin.password.changed', account: admin.email }, 'admin changed password');
    return { ok: true as const };
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
