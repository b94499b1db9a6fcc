import { TRPCError } from '@trpc/server';
import { teamMemberInput, teamRoleInput } from '../../shared/auth.js';
import { ownerProcedure, router } from '../../trpc/init.js';
import { AdminAccountError, changeRole, removeAccount } from './admin-accounts.js';
import { findAdminById, listAdmins } from './admins.repository.js';

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
      you: a.id === ctx.admin.id,
    })),
  ),

  setRole: ownerProcedure.input(teamRoleInput).mutation(async ({ ctx, input }) => {
    const admin = await someoneElse(ctx, input.id);
    await accountChange(() => changeRole(ctx.db, admin.email, input.role, ctx.clock.now()));
    ctx.audit.changes = [{ field: 'role', from: admin.role, to: input.role }];
    ctx.log.info(
      { event: 'admin.role.changed', account: ctx.admin.email, target: admin.email, role: input.role },
      'admin role changed',
    );
    return { ok: true as const };
  }),

  remove: ownerProcedure.input(teamMemberInput).mutation(async ({ ctx, input }) => {
    const admin = await someoneElse(ctx, input.id);
    await accountChange(() => removeAccount(ctx.db, admin.email));
    ctx.log.info({ event: 'admin.removed', account: ctx.admin.email, target: admin.email }, 'admin removed');
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

/** The accounts' own refusals (the last owner) are the admin's to read, as a 400. */
async function accountChange(change: () => Promise<void>): Promise<void> {
  try {
    await change();
  } catch (error) {
    if (error instanceof AdminAccountError)
      throw new TRPCError({ code: 'BAD_REQUEST', message: error.message });
    throw error;
  }
}
