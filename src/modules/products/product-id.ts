import { randomBytes } from 'node:crypto';

/** A new product id: "plink_" and 16 random characters of [a-z0-9]. Pure (no database). */
export function newProductId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return `plink_${Array.from(randomBytes(16), (b) => alphabet[b % alphabet.length]).join('')}`;
}
