import { type AdminSessionInfo, loginInput } from '../../shared/auth.js';
import { publicProcedure, router } from '../../trpc/init.js';
import { revokeSession } from './admin-sessions.repository.js';
import { login } from './auth.service.js';
import { currentSessionId } from './session.js';

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
    if (ctx.admin) ctx.log.info({ event: 'admin.logout', account: ctx.admin.email }, 'admin signed out');
    ctx.session.clear();
    return { ok: true as const };
  }),

  /** Who is signed in, for the client's route guard and the menu's session timer; null for everyone else. */
  me: publicProcedure.query(({ ctx }): AdminSessionInfo | null =>
    ctx.admin ? { email: ctx.admin.email, loginAt: ctx.admin.loginAt, role: ctx.admin.role } : null,
  ),
});
