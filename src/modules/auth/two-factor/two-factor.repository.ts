import type { DbOrTx } from '../../../db/database.js';

/** An account's two-factor state as stored: the secrets still sealed. */
export type TwoFactorRow = {
  secret: string | null;
  pendingSecret: string | null;
  enabledAt: string | null;
  lastStep: number | null;
};

export async function readTwoFactor(db: DbOrTx, adminId: number): Promise<TwoFactorRow | null> {
  const row = await db
    .selectFrom('admins')
    .select([
      'totp_secret as secret',
      'totp_pending_secret as pendingSecret',
      'totp_enabled_at as enabledAt',
      'totp_last_step as lastStep',
    ])
    .where('id', '=', adminId)
    .executeTakeFirst();
  return row ?? null;
}

export async function unusedRecoveryCodes(db: DbOrTx, adminId: number): Promise<number> {
  const row = await db
    .selectFrom('admin_recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('admin_id', '=', adminId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function setPendingSecret(
  db: DbOrTx,
  adminId: number,
  sealed: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('admins')
    .set({ totp_pending_secret: sealed, updated_at: now.toISOString() })
    .where('id', '=', adminId)
    .execute();
}

/**
 * Turns two-factor on with the confirmed secret, only if it is still the one waiting (a second enrolment
 * started in another tab replaces it): the first code's step counts as used.
 */
export async function enableTwoFactor(
  db: DbOrTx,
  adminId: number,
  opts: { pendingSecret: string; step: number; now: Date },
): Promise<boolean> {
  const iso = opts.now.toISOString();
  const result = await db
    .updateTable('admins')
    .set({
      totp_secret: opts.pendingSecret,
      totp_pending_secret: null,
      totp_enabled_at: iso,
      totp_last_step: opts.step,
      updated_at: iso,
    })
    .where('id', '=', adminId)
    .where('totp_pending_secret', '=', opts.pendingSecret)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function replaceRecoveryCodes(db: DbOrTx, adminId: number, hashes: string[]): Promise<void> {
  await db.deleteFrom('admin_recovery_codes').where('admin_id', '=', adminId).execute();
  if (hashes.length === 0) return;
  await db
    .insertInto('admin_recovery_codes')
    .values(hashes.map((code_hash) => ({ admin_id: adminId, code_hash, used_at: null })))
    .execute();
}

/**
 * Takes the code's time step as used, in one atomic update: of two requests with the same code (a replay,
 * or two tabs), exactly one gets true, and a code of an earlier step than one used is refused too.
 */
export async function claimStep(db: DbOrTx, adminId: number, step: number): Promise<boolean> {
  const result = await db
    .updateTable('admins')
    .set({ totp_last_step: step })
    .where('id', '=', adminId)
    .where('totp_enabled_at', 'is not', null)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Uses one recovery code, atomically: true for exactly one request, false once it was used. */
export async function spendRecoveryCode(
  db: DbOrTx,
  adminId: number,
  hash: string,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('admin_recovery_codes')
    .set({ used_at: now.toISOString() })
    .where('admin_id', '=', adminId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The secret sealed again (a new session key), unless it changed meanwhile. */
export async function resealSecret(db: DbOrTx, adminId: number, was: string, sealed: string): Promise<void> {
  await db
    .updateTable('admins')
    .set({ totp_secret: sealed })
    .where('id', '=', adminId)
    .where('totp_secret', '=', was)
    .execute();
}

/** Two-factor off: the secret, any waiting one and the recovery codes are gone. */
export async function clearTwoFactor(db: DbOrTx, adminId: number, now: Date): Promise<void> {
  await db
    .updateTable('admins')
    .set({
      totp_secret: null,
      totp_pending_secret: null,
      totp_enabled_at: null,
      totp_last_step: null,
      updated_at: now.toISOString(),
    })
    .where('id', '=', adminId)
    .execute();
  await db.deleteFrom('admin_recovery_codes').where('admin_id', '=', adminId).execute();
}

type SealedColumn = 'totp_secret' | 'totp_pending_secret';

/** Every two-factor secret still sealed in the database, turned on or waiting for its first code. */
export async function sealedSecrets(db: DbOrTx): Promise<Array<{ column: SealedColumn; sealed: string }>> {
  const rows = await db
    .selectFrom('admins')
    .select(['totp_secret', 'totp_pending_secret'])
    .where((eb) => eb.or([eb('totp_secret', 'is not', null), eb('totp_pending_secret', 'is not', null)]))
    .execute();
  return rows.flatMap((r) => [
    ...(r.totp_secret === null ? [] : [{ column: 'totp_secret' as const, sealed: r.totp_secret }]),
    ...(r.totp_pending_secret === null
      ? []
      : [{ column: 'totp_pending_secret' as const, sealed: r.totp_pending_secret }]),
  ]);
}

/** A sealed secret replaced by the same secret sealed again, unless it changed meanwhile: whether it was. */
export async function replaceSealed(
  db: DbOrTx,
  column: SealedColumn,
  was: string,
  sealed: string,
): Promise<boolean> {
  const result = await db
    .updateTable('admins')
    .set({ [column]: sealed })
    .where(column, '=', was)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
