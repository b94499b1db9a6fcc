import type { AdminRole, Db, DbOrTx } from '../../db/database.js';
import { oneAtATime } from '../../db/engine-sql.js';
import {
  findAdminByEmail,
  insertAdmin,
  listAdmins,
  normaliseEmail,
  setAdminRole,
} from './admins.repository.js';

/**
 * Managing admin accounts, for the CLI and the owner's admin screens alike. A shop always keeps an owner:
 * the last one can be neither removed nor made staff, or nobody could manage refunds, settings or admins.
 */
export class AdminAccountError extends Error {}

export async function createAccount(
  db: Db,
  account: { email: string; passwordHash: string; role: AdminRole },
  now: Date,
): Promise<number> {
  const email = normaliseEmail(account.email);
  return db.transaction().execute(async (tx) => {
    await oneAtATime(tx, ACCOUNTS_LOCK);
    if (await findAdminByEmail(tx, email)) throw new AdminAccountError(`An admin ${email} already exists`);
    return insertAdmin(tx, email, account.passwordHash, now, account.role);
  });
}

/** A changed role applies on the account's next request; its sessions stay signed in. */
export async function changeRole(db: Db, email: string, role: AdminRole, now: Date): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await oneAtATime(tx, ACCOUNTS_LOCK);
    const admin = await findAdminByEmail(tx, email);
    if (!admin) throw new AdminAccountError(`No admin ${normaliseEmail(email)}`);
    if (admin.role === role) return;
    if (admin.role === 'owner') await keepAnOwner(tx, admin.id);
    await setAdminRole(tx, admin.id, role, now);
  });
}

/** Deletes the account; its sessions go with it (ON DELETE CASCADE). */
export async function removeAccount(db: Db, email: string): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await oneAtATime(tx, ACCOUNTS_LOCK);
    const admin = await findAdminByEmail(tx, email);
    if (!admin) throw new AdminAccountError(`No admin ${normaliseEmail(email)}`);
    if (admin.role === 'owner') await keepAnOwner(tx, admin.id);
    await tx.deleteFrom('admins').where('id', '=', admin.id).execute();
  });
}

/**
 * Two owners demoting each other at once on PostgreSQL must not both see the other one stay; an invitation
 * accepted while the same email is made an account takes it too.
 */
export const ACCOUNTS_LOCK = 'admin-accounts';

async function keepAnOwner(tx: DbOrTx, leaving: number): Promise<void> {
  const owners = (await listAdmins(tx)).filter((a) => a.role === 'owner' && a.id !== leaving);
  if (owners.length === 0) {
    throw new AdminAccountError('This is the last owner: make another account owner first');
  }
}
