import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
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
  if (deps.config.initialAdmin) {
    const { email, password } = deps.config.initialAdmin;
    await insertAdmin(deps.db, email, await hashPassword(password), deps.clock.now());
    return { kind: 'from-env', email: email.toLowerCase() };
  }
  if (deps.freshDemo) {
    const password = randomBytes(15).toString('base64url');
    await insertAdmin(deps.db, DEMO_ADMIN_EMAIL, await hashPassword(password), deps.clock.now());
    return { kind: 'demo', email: DEMO_ADMIN_EMAIL, password };
  }
  return { kind: 'none' };
}
