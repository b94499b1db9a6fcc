import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEVICE_COOKIE_MAX_AGE_MS, DeviceCookieSigner } from './device-cookie.js';

const now = new Date('2026-11-22T10:00:00.000Z');
const later = (ms: number) => new Date(now.getTime() + ms);

describe('device cookie tokens', () => {
  const key = randomBytes(32);
  const signer = new DeviceCookieSigner([key]);

  it('verifies its own token and gives each token its own device id', () => {
    const a = signer.issue(7, 0, now);
    const b = signer.issue(7, 0, now);
    expect(signer.verify(a, now)).toMatchObject({ adminId: 7, issuedAt: now.getTime() });
    expect(signer.verify(a, now)?.deviceId).not.toBe(signer.verify(b, now)?.deviceId);
  });

  it('refuses a token with a changed payload, a changed signature, or none, and garbage', () => {
    const token = signer.issue(7, 0, now);
    const [payload, signature] = token.split('.') as [string, string];
    const forged = Buffer.from(
      Buffer.from(payload, 'base64url').toString().replace('"a":7', '"a":1'),
    ).toString('base64url');
    const flipped = `${signature.slice(0, -1)}${signature.at(-1) === 'A' ? 'B' : 'A'}`;
    for (const bad of [`${forged}.${signature}`, `${payload}.${flipped}`, payload, `${token}.x`, '', 'a.b']) {
      expect(signer.verify(bad, now)).toBeNull();
    }
    expect(signer.verify(undefined, now)).toBeNull();
    expect(signer.verify('x'.repeat(10_000), now)).toBeNull();
  });

  it('refuses a token signed with another key, and one the session key itself would sign', () => {
    expect(new DeviceCookieSigner([randomBytes(32)]).verify(signer.issue(7, 0, now), now)).toBeNull();
    const token = signer.issue(7, 0, now);
    const [payload] = token.split('.') as [string];
    const rawMac = createHmac('sha256', key).update(payload).digest('base64url');
    expect(signer.verify(`${payload}.${rawMac}`, now)).toBeNull();
  });

  it('keeps tokens of the previous session key valid after a rotation, signing new ones with the new key', () => {
    const old = signer.issue(7, 0, now);
    const rotated = new DeviceCookieSigner([randomBytes(32), key]);
    expect(rotated.verify(old, now)?.adminId).toBe(7);
    expect(signer.verify(rotated.issue(7, 0, now), now)).toBeNull();
  });

  it('expires after 180 days and refuses a token issued in the future', () => {
    const token = signer.issue(7, 0, now);
    expect(signer.verify(token, later(DEVICE_COOKIE_MAX_AGE_MS))).not.toBeNull();
    expect(signer.verify(token, later(DEVICE_COOKIE_MAX_AGE_MS + 1))).toBeNull();
    expect(signer.verify(signer.issue(7, 0, later(5 * 60_000)), now)).toBeNull();
  });

  it("carries the account's session epoch, and refuses a token signed before epochs were part of it", () => {
    expect(signer.verify(signer.issue(7, 3, now), now)).toMatchObject({ adminId: 7, epoch: 3 });
    // Signed as the previous version signed (same key, same derivation): refused only for the missing `e`.
    const deviceKey = createHmac('sha256', key).update('store device cookie v1').digest();
    const token = (claim: object) => {
      const payload = Buffer.from(JSON.stringify(claim)).toString('base64url');
      return `${payload}.${createHmac('sha256', deviceKey).update(payload).digest('base64url')}`;
    };
    const claim = { a: 7, n: 'A'.repeat(22), t: now.getTime() };
    expect(signer.verify(token(claim), now)).toBeNull();
    expect(signer.verify(token({ ...claim, e: 0 }), now)).toMatchObject({ adminId: 7, epoch: 0 });
  });
});
