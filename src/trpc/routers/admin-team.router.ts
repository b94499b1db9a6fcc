import { TRPCError } from '@trpc/server';
import { refusalsAsBadRequest } from '../../modules/auth/account-refusals.js';
import { changeRole, removeAccount } from '../../modules/auth/admin-accounts.js';
import { findAdminById, listAdmins } from '../../modules/auth/admins.repository.js';
import { inviteEmail } from '../../modules/auth/invites/invite-email.js';
import { createInvite, inviteLink, openInvites, revokeInvite } from '../../modules/auth/invites/invites.js';
import { resetTwoFactor } from '../../modules/auth/two-factor/two-factor.service.js';
import { enqueueEmail } from '../../modules/email/outbox.repository.js';
import { readStoreIdentity } from '../../modules/email/store-identity.js';
import { inviteInput, teamMemberInput, teamRoleInput } from '../../shared/auth.js';
import { ownerProcedure, router } from '../init.js';

/**
 * admin.team.*: the owner's view of the shop's admin accounts (decision 0030): who they are, their roles,
 * and removing one. An owner changes neither their own role nor their own account here, so a slip of the
 * mouse cannot lock them out; the CLI can.
 */
export const adminTeamRouter = router({
  list: ownerProcedure.query(async ({ ctx }) =>
    (await listAdmins(ctx.db)).map((a) => ({
      id: a.id,
      email: a.email,
      role: a.role,
      createdAt: a.createdAt,
      lastLoginAt: a.lastLoginAt,
      twoFactor: a.twoFactor,
      you: a.id === ctx.admin.id,
    })),
  ),

  setRole: ownerProcedure
    .meta({ freshCode: true })
    .input(teamRoleInput)
    .mutation(async ({ ctx, input }) => {
      const admin = await someoneElse(ctx, input.id);
      await refusalsAsBadRequest(() => changeRole(ctx.db, admin.email, input.role, ctx.clock.now()));
      ctx.audit.changes = [{ field: 'role', from: admin.role, to: input.role }];
      ctx.log.info(
        { event: 'admin.role.changed', account: ctx.admin.email, target: admin.email, role: input.role },
        'admin role changed',
      );
      return { ok: true as const };
    }),

  remove: ownerProcedure
    .meta({ freshCode: true })
    .input(teamMemberInput)
    .mutation(async ({ ctx, input }) => {
      const admin = await someoneElse(ctx, input.id);
      await refusalsAsBadRequest(() => removeAccount(ctx.db, admin.email));
      ctx.log.info(
        { event: 'admin.removed', account: ctx.admin.email, target: admin.email },
        'admin removed',
      );
      return { ok: true as const };
    }),

  /**
   * An invitation by one-time link: shown to the owner to pass on, and emailed through the outbox when
   * asked (in the invitation's own transaction).
   */
  invite: ownerProcedure
    .meta({ freshCode: true })
    .input(inviteInput)
    .mutation(async ({ ctx, input }) => {
      const now = ctx.clock.now();
      const made = await refusalsAsBadRequest(() =>
        createInvite(ctx.db, {
          email: input.email,
          role: input.role,
          invitedBy: ctx.admin.email,
          now,
          alsoInTransaction: async (tx, invite, token) => {
            if (!input.send) return;
            const store = await readStoreIdentity(tx, ctx.config.publicUrl);
            const link = inviteLink(ctx.config.publicUrl, token);
            const email = inviteEmail({
              store,
              invitedBy: ctx.admin.email,
              role: invite.role,
              link,
              expiresAt: invite.expiresAt,
            });
            await enqueueEmail(tx, { kind: 'admin_invite', orderId: null, to: invite.email, ...email }, now);
          },
        }),
      );
      if (input.send) ctx.mail.nudge();
      ctx.log.info(
        {
          event: 'admin.invited',
          account: ctx.admin.email,
          target: made.invite.email,
          role: input.role,
          emailed: input.send,
        },
        'admin invited',
      );
      return { invite: made.invite, link: inviteLink(ctx.config.publicUrl, made.token), emailed: input.send };
    }),

  invites: ownerProcedure.query(({ ctx }) => openInvites(ctx.db, ctx.clock.now())),

  revokeInvite: ownerProcedure
    .meta({ freshCode: true })
    .input(teamMemberInput)
    .mutation(async ({ ctx, input }) => {
      const invite = await revokeInvite(ctx.db, input.id, ctx.clock.now());
      if (!invite) throw new TRPCError({ code: 'NOT_FOUND', message: 'That invitation is no longer open' });
      ctx.log.info(
        { event: 'admin.invite.revoked', account: ctx.admin.email, target: invite.email },
        'invitation withdrawn',
      );
      return { ok: true as const };
    }),

  /**
   * Another account's two-factor off, for a lost phone: its sessions end too (one may be on that phone),
   * and it signs in with the password alone until it enrols again (at once, with ADMIN_REQUIRE_2FA).
   */
  resetTwoFactor: ownerProcedure
    .meta({ freshCode: true })
    .input(teamMemberInput)
    .mutation(async ({ ctx, input }) => {
      const admin = await someoneElse(ctx, input.id);
      await resetTwoFactor(ctx.db, admin.id, ctx.clock.now());
      ctx.audit.changes = [{ field: 'twoFactor', from: admin.twoFactor, to: false }];
      ctx.log.warn(
        { event: 'admin.2fa.reset', account: ctx.admin.email, target: admin.email },
        "an owner reset another admin's two-factor sign-in",
      );
      return { ok: true as const };
    }),
});

async function someoneElse(
  ctx: { db: Parameters<typeof findAdminById>[0]; admin: { id: number } },
  id: number,
) {
  if (id === ctx.admin.id) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: 'You cannot change or remove your own account here: ask another owner',
    });
  }
  const admin = await findAdminById(ctx.db, id);
  if (!admin) throw new TRPCError({ code: 'NOT_FOUND', message: 'No such admin' });
  return admin;
}
