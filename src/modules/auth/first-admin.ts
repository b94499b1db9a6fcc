import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import { oneAtATime } from '../../db/engine-sql.js';
import { countAdmins, insertAdmin } from './admins.repository.js';
import { hashPassword } from './password.js';

export const DEMO_ADMIN_EMAIL = 'admin@demo.store';

export type FirstAdminResult =
  | { kind: 'exists' }
  | { kind: 'from-env'; email: string }
  | { kind: 'demo'; email: string; password: string }
  | { kind: 'none' };

/**
 * Makes sure the operator can get in on first start: ADMIN_EMAIL/ADMIN_PASSWORD create the first account;
 * a fresh demo install gets a demo account with a password generated now (shown once on the terminal, never
 * stored anywhere but as a hash); otherwise the caller tells the operator how to create one.
 */
export async function ensureFirstAdmin(deps: {
  db: Db;
  config: Config;
  clock: Clock;
  freshDemo: boolean;
}): Promise<FirstAdminResult> {
  if ((await countAdmins(deps.db)) > 0) return { kind: 'exists' };
  const account = deps.config.initialAdmin
    ? { ...deps.config.initialAdmin, kind: 'from-env' as const }
    : deps.freshDemo
      ? { email: DEMO_ADMIN_EMAIL, password: randomBytes(15).toString('base64url'), kind: 'demo' as const }
      : null;
  if (!account) return { kind: 'none' };
  // Hashed before the transaction so the write lock is not held for it.
  const hash = await hashPassword(account.password);
  // Processes starting together on one PostgreSQL database take turns, and only the first creates it.
  const created = await deps.db.transaction().execute(async (trx) => {
    await oneAtATime(trx, 'first-admin');
    if ((await countAdmins(trx)) > 0) return false;
    await insertAdmin(trx, account.email, hash, deps.clock.now());
    return true;
  });
  if (!created) return { kind: 'exists' };
  return account.kind === 'demo'
    ? { kind: 'demo', email: account.email, password: account.password }
    : { kind: 'from-env', email: account.email.toLowerCase() };
}
