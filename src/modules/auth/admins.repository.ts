import type { AdminRole, DbOrTx } from '../../db/database.js';
import { verifyPassword } from './password.js';

export type AdminRecord = {
  id: number;
  email: string;
  passwordHash: string;
  sessionEpoch: number;
  createdAt: string;
  lastLoginAt: string | null;
  role: AdminRole;
  /** Two-factor sign-in is on (decision 0032). */
  twoFactor: boolean;
};

const columns = [
  'id',
  'email',
  'password_hash',
  'session_epoch',
  'created_at',
  'last_login_at',
  'role',
  'totp_enabled_at',
] as const;

type Row = {
  id: number;
  email: string;
  password_hash: string;
  session_epoch: number;
  created_at: string;
  last_login_at: string | null;
  role: AdminRole;
  totp_enabled_at: string | null;
};

function toRecord(r: Row): AdminRecord {
  return {
    id: r.id,
    email: r.email,
    passwordHash: r.password_hash,
    sessionEpoch: r.session_epoch,
    createdAt: r.created_at,
    lastLoginAt: r.last_login_at,
    role: r.role,
    twoFactor: r.totp_enabled_at !== null,
  };
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findAdminByEmail(db: DbOrTx, email: string): Promise<AdminRecord | null> {
  // The column is COLLATE NOCASE, so the unique index serves this case-insensitive lookup.
  const row = await db
    .selectFrom('admins')
    .select(columns)
    .where('email', '=', normaliseEmail(email))
    .executeTakeFirst();
  return row ? toRecord(row) : null;
}

export async function findAdminById(db: DbOrTx, id: number): Promise<AdminRecord | null> {
  const row = await db.selectFrom('admins').select(columns).where('id', '=', id).executeTakeFirst();
  return row ? toRecord(row) : null;
}

/** The account, when `password` is its password; null otherwise (or when there is no such account). */
export async function adminWithPassword(
  db: DbOrTx,
  id: number,
  password: string,
): Promise<AdminRecord | null> {
  const admin = await findAdminById(db, id);
  return admin && (await verifyPassword(password, admin.passwordHash)) ? admin : null;
}

export async function listAdmins(db: DbOrTx): Promise<AdminRecord[]> {
  return (await db.selectFrom('admins').select(columns).orderBy('id').execute()).map(toRecord);
}

export async function countAdmins(db: DbOrTx): Promise<number> {
  const row = await db
    .selectFrom('admins')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertAdmin(
  db: DbOrTx,
  email: string,
  passwordHash: string,
  now: Date,
  role: AdminRole = 'owner',
): Promise<number> {
  const iso = now.toISOString();
  const row = await db
    .insertInto('admins')
    .values({
      email: normaliseEmail(email),
      password_hash: passwordHash,
      created_at: iso,
      updated_at: iso,
      role,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A new password also ends every session that was signed in with the old one. */
export async function setAdminPassword(
  db: DbOrTx,
  id: number,
  passwordHash: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('admins')
    .set((eb) => ({
      password_hash: passwordHash,
      session_epoch: eb('session_epoch', '+', 1),
      updated_at: now.toISOString(),
    }))
    .where('id', '=', id)
    .execute();
}

export async function bumpSessionEpoch(db: DbOrTx, id: number, now: Date): Promise<void> {
  await db
    .updateTable('admins')
    .set((eb) => ({ session_epoch: eb('session_epoch', '+', 1), updated_at: now.toISOString() }))
    .where('id', '=', id)
    .execute();
}

export async function recordLogin(db: DbOrTx, id: number, now: Date): Promise<void> {
  await db.updateTable('admins').set({ last_login_at: now.toISOString() }).where('id', '=', id).execute();
}

/** A new role takes effect on the admin's next request: every request reads it with the session. */
export async function setAdminRole(db: DbOrTx, id: number, role: AdminRole, now: Date): Promise<void> {
  await db.updateTable('admins').set({ role, updated_at: now.toISOString() }).where('id', '=', id).execute();
}
