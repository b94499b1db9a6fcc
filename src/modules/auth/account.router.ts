import { TRPCError } from '@trpc/server';
import { changePasswordInput } from '../../shared/auth.js';
import { adminProcedure, router } from '../../trpc/init.js';
import { bumpSessionEpoch, findAdminById, setAdminPassword } from './admins.repository.js';
import { hashPassword, passwordProblem, verifyPassword } from './password.js';

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
    await setAdminPassword(ctx.db, admin.id, await hashPassword(input.newPassword), now);
    // Every other session ends with the epoch bump; this browser continues under the new epoch.
    const loginAt = new Date(ctx.admin.loginAt).getTime();
    ctx.session.write({
      adminId: admin.id,
      epoch: admin.sessionEpoch + 1,
      issuedAt: loginAt,
      lastSeenAt: now.getTime(),
    });
    ctx.log.info({ event: 'admin.password.changed', account: admin.email }, 'admin changed password');
    return { ok: true as const };
  }),

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
