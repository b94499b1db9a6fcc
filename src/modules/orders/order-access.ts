import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The key of an order page link: 192 random bits, unrelated to the order's id. */
export function newAccessToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Compares in constant time, so a guess learns nothing from how long the refusal took. */
export function tokenMatches(expected: string | null, given: string): boolean {
  if (!expected) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The shopper's order page, as a path (the success page) or a full link (the emails). */
export function orderPagePath(orderId: string, token: string): string {
  return `/order/${encodeURIComponent(orderId)}?token=${encodeURIComponent(token)}`;
}

/** SHA-256 of a cash-on-delivery confirmation token, as orders.confirm_token_hash keeps it (decision 0038). */
export function confirmTokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
