import { createHash, randomInt } from 'node:crypto';

/** Ten one-time codes for the day the phone is lost (decision 0032). */
export const RECOVERY_CODE_COUNT = 10;

// No 0/o, 1/l/i: a code is read off paper.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const GROUPS = 4;
const GROUP = 4;

/**
 * "abcd-efgh-jkmn-pqrs": sixteen characters of a 31-letter alphabet, about 79 random bits, so that even a
 * copy of the database (which holds their hashes) gives no code by trying them all.
 */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () =>
    Array.from({ length: GROUPS }, () =>
      Array.from({ length: GROUP }, () => ALPHABET[randomInt(ALPHABET.length)]).join(''),
    ).join('-'),
  );
}

export const RECOVERY_CODE_PATTERN = /^[a-z0-9]{4}(-?[a-z0-9]{4}){3}$/i;

/**
 * What is stored of a code. A plain SHA-256 is enough for 79 random bits (nothing to guess from a
 * dictionary, too many to try), and lets one indexed lookup find the code.
 */
export function recoveryCodeHash(code: string): string {
  const normal = code.trim().toLowerCase().replace(/[\s-]/g, '');
  return createHash('sha256').update(`recovery:${normal}`).digest('base64url');
}
