import { createHash, randomInt } from 'node:crypto';

/** Ten one-time codes for the day the phone is lost (issue 19). */
export const RECOVERY_CODE_COUNT = 10;

// No 0/o, 1/l/i: a code is read off paper.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const HALF = 5;

/** "abcde-fghjk": ten characters of a 31-letter alphabet, about 50 random bits. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const chars = Array.from({ length: HALF * 2 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    return `${chars.slice(0, HALF)}-${chars.slice(HALF)}`;
  });
}

export const RECOVERY_CODE_PATTERN = /^[a-z0-9]{5}-?[a-z0-9]{5}$/i;

/**
 * What is stored of a code. A plain SHA-256 is enough for 50 random bits (nothing to guess from a
 * dictionary), and lets one indexed lookup find the code.
 */
export function recoveryCodeHash(code: string): string {
  const normal = code.trim().toLowerCase().replace(/[\s-]/g, '');
  return createHash('sha256').update(`recovery:${normal}`).digest('base64url');
}
