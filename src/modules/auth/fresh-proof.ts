import type { AdminIdentity } from './session.js';

/** How long a confirmation (a code, or the password without two-factor) counts as fresh (decision 0032). */
export const FRESH_PROOF_MS = 10 * 60_000;

const CLOCK_SKEW_MS = 60_000;

/** The session proved who is behind it within the last ten minutes. */
export function isFreshlyConfirmed(admin: Pick<AdminIdentity, 'confirmedAt'>, now: Date): boolean {
  if (admin.confirmedAt === null) return false;
  const age = now.getTime() - Date.parse(admin.confirmedAt);
  // A minute "in the future" is another process's clock a little ahead, not a forged time.
  return age >= -CLOCK_SKEW_MS && age <= FRESH_PROOF_MS;
}
