import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/**
 * OWASP's "device cookie": a browser that once signed in to an account gets a signed token naming that
 * account, so its sign-ins are judged by their own failures, not by a stranger's guesses at the same account.
 * It proves nothing by itself (the password is still checked) and is not a session. It names the account's
 * session epoch too: "sign out everywhere" and a new password bump it, and the cookie stops counting as known.
 */
export const DEVICE_COOKIE = 'store_device';
export const DEVICE_COOKIE_MAX_AGE_MS = 180 * 24 * 60 * 60_000;

/**
 * Payload keys are one letter: the cookie goes with every API request. No email: the value is not sealed.
 * Strict, with `e` required: a cookie issued before the epoch was part of it no longer counts as a known device.
 */
const claimSchema = z
  .object({
    a: z.number().int().positive(),
    e: z.number().int().min(0),
    n: z.string().regex(/^[A-Za-z0-9_-]{22}$/),
    t: z.number().int().positive(),
    // The browser gave a two-factor code for the account (not only its password): see codeGiven.
    c: z.literal(1).optional(),
  })
  .strict();

/**
 * A verified device cookie: the admin it was issued to and that admin's session epoch then, its own id
 * (per-device failures) and its age.
 */
export type DeviceClaim = {
  adminId: number;
  epoch: number;
  deviceId: string;
  issuedAt: number;
  /**
   * This browser has given the account's two-factor code (a sign-in completed, an enrolment confirmed), not
   * only its password: it then has its own budget of wrong codes (decision 0032). A password alone must not
   * earn one, or whoever has the password could mint a fresh budget per cookie.
   */
  codeGiven: boolean;
};

// Longer than any token issue() writes; anything longer is refused before any work.
const MAX_TOKEN_LENGTH = 256;
// A few seconds of clock difference between processes must not invalidate a fresh cookie.
const CLOCK_SKEW_MS = 60_000;

export class DeviceCookieSigner {
  private readonly keys: Buffer[];

  /**
   * Keyed from the session keys (the first signs, all verify, so a rotation keeps known devices known), each
   * through HMAC with a label so that no value this signs could ever pass as anything a session key made.
   */
  constructor(sessionKeys: readonly Buffer[]) {
    if (sessionKeys.length === 0) throw new Error('DeviceCookieSigner needs at least one key');
    this.keys = sessionKeys.map((k) => createHmac('sha256', k).update('store device cookie v1').digest());
  }

  issue(adminId: number, epoch: number, now: Date, opts: { codeGiven?: boolean } = {}): string {
    const claim = {
      a: adminId,
      e: epoch,
      n: randomBytes(16).toString('base64url'),
      t: now.getTime(),
      ...(opts.codeGiven ? { c: 1 } : {}),
    };
    const payload = Buffer.from(JSON.stringify(claim), 'utf8').toString('base64url');
    return `${payload}.${mac(this.keys[0] as Buffer, payload)}`;
  }

  /** The claim of a genuine, unexpired token; null for anything else (absent, tampered, foreign, old). */
  verify(token: string | undefined, now: Date): DeviceClaim | null {
    if (!token || token.length > MAX_TOKEN_LENGTH) return null;
    const [payload, signature, ...rest] = token.split('.');
    if (!payload || !signature || rest.length > 0) return null;
    const given = Buffer.from(signature, 'utf8');
    const signed = this.keys.some((key) => {
      const expected = Buffer.from(mac(key, payload), 'utf8');
      return expected.length === given.length && timingSafeEqual(expected, given);
    });
    if (!signed) return null;
    let json: unknown;
    try {
      json = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return null;
    }
    const parsed = claimSchema.safeParse(json);
    if (!parsed.success) return null;
    const age = now.getTime() - parsed.data.t;
    if (age > DEVICE_COOKIE_MAX_AGE_MS || age < -CLOCK_SKEW_MS) return null;
    const { a, e, n, t, c } = parsed.data;
    return { adminId: a, epoch: e, deviceId: n, issuedAt: t, codeGiven: c === 1 };
  }
}

function mac(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(payload, 'utf8').digest('base64url');
}
