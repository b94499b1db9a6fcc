import { loginInput } from '../../shared/auth.js';
import { publicProcedure, router } from '../../trpc/init.js';
import { login } from './auth.service.js';

export const authRouter = router({
  login: publicProcedure
    .input(loginInput)
    .mutation(({ ctx, input }) => login(ctx, input.email, input.password)),

  logout: publicProcedure.mutation(({ ctx }) => {
    if (ctx.admin) ctx.log.info({ event: 'admin.logout', account: ctx.admin.email }, 'admin signed out');
    ctx.session.clear();
    return { ok: true as const };
  }),

  /** Who is signed in, for the client's route guard and the menu's session timer; null for everyone else. */
  me: publicProcedure.query(({ ctx }) =>
    ctx.admin ? { email: ctx.admin.email, loginAt: ctx.admin.loginAt } : null,
  ),
});
