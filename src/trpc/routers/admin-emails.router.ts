import { TRPCError } from '@trpc/server';
import { emailKindsHiddenFrom } from '../../modules/email/email-visibility.js';
import { listEmails, requeueEmail } from '../../modules/email/outbox.repository.js';
import { emailIdInput, emailListInput } from '../../shared/emails.js';
import { adminProcedure, router } from '../init.js';

/** admin.emails.*: what became of each order email, and sending one again. Bodies never leave the server. */
export const adminEmailsRouter = router({
  list: adminProcedure.input(emailListInput).query(({ ctx, input }) =>
    listEmails(ctx.db, {
      orderId: input.orderId,
      status: input.status,
      hiddenKinds: emailKindsHiddenFrom(ctx.admin.role),
      offset: input.cursor ?? 0,
      limit: input.limit,
    }),
  ),

  /**
   * Queues the email again, due now, attempts from zero: a failed one once its cause is fixed, or a sent one
   * the customer lost. The worker is nudged after the write has committed.
   */
  resend: adminProcedure.input(emailIdInput).mutation(async ({ ctx, input }) => {
    const result = await requeueEmail(
      ctx.db,
      input.id,
      ctx.clock.now(),
      emailKindsHiddenFrom(ctx.admin.role),
    );
    if (!result.ok) {
      if (result.reason === 'not_found')
        throw new TRPCError({ code: 'NOT_FOUND', message: 'Email not found' });
      if (result.reason === 'forbidden')
        throw new TRPCError({ code: 'FORBIDDEN', message: 'Only the owner can send team invitations again' });
      throw new TRPCError({ code: 'CONFLICT', message: 'This email is being sent right now' });
    }
    ctx.log.info(
      {
        event: 'email.resend',
        emailId: input.id,
        kind: result.kind,
        orderId: result.orderId,
        was: result.was,
        account: ctx.admin.email,
      },
      'email queued again',
    );
    ctx.mail.nudge();
    return { ok: true as const };
  }),
});
