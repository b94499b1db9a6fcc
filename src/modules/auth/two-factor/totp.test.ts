import { randomBytes } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.js';
import { base32Decode, base32Encode, matchingStep, timeStep, totpCode } from './totp.js';

describe('TOTP', () => {
  it('makes the codes of RFC 6238’s test vectors (SHA-1, 8 digits there; the last 6 here)', () => {
    const secret = Buffer.from('12345678901234567890');
    const vectors: Array<[number, string]> = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
    ];
    for (const [seconds, code] of vectors)
      expect(totpCode(secret, timeStep(seconds * 1000))).toBe(code.slice(2));
  });

  it('agrees with otpauth on random secrets and times, and accepts one step of drift either way', () => {
    for (let i = 0; i < 200; i++) {
      const secret = randomBytes(20);
      const now = 1_700_000_000_000 + Math.floor(Math.random() * 1e12);
      const theirs = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(base32Encode(secret)) });
      expect(totpCode(secret, timeStep(now))).toBe(theirs.generate({ timestamp: now }));
      expect(matchingStep(secret, theirs.generate({ timestamp: now - 30_000 }), now)).toBe(timeStep(now) - 1);
      expect(matchingStep(secret, theirs.generate({ timestamp: now + 30_000 }), now)).toBe(timeStep(now) + 1);
      const far = theirs.generate({ timestamp: now - 90_000 });
      if (
        far !== totpCode(secret, timeStep(now)) &&
        far !== totpCode(secret, timeStep(now) - 1) &&
        far !== totpCode(secret, timeStep(now) + 1)
      ) {
        expect(matchingStep(secret, far, now)).toBeNull();
      }
    }
  });

  it('refuses what is not six digits', () => {
    const secret = randomBytes(20);
    for (const code of ['', '12345', '1234567', 'abcdef', ' 123456', '12345٦']) {
      expect(matchingStep(secret, code, Date.now())).toBeNull();
    }
  });

  it('base32 round-trips', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = randomBytes(n);
      expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
      expect(base32Encode(bytes)).toBe(
        OTPAuth.Secret.fromHex(bytes.toString('hex')).base32.replace(/=+$/, ''),
      );
    }
  });
});

describe('SecretBox', () => {
  it('opens with the key that sealed, after a rotation too, and not with others', () => {
    const [oldKey, newKey, otherKey] = [randomBytes(32), randomBytes(32), randomBytes(32)];
    const secret = randomBytes(20);
    const sealed = new SecretBox([oldKey]).seal(secret);
    expect(sealed).not.toContain(secret.toString('base64url'));
    expect(new SecretBox([newKey, oldKey]).open(sealed)).toEqual(secret);
    expect(new SecretBox([otherKey]).open(sealed)).toBeNull();
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`;
    expect(new SecretBox([oldKey]).open(tampered)).toBeNull();
    expect(new SecretBox([oldKey]).open('not sealed')).toBeNull();
  });
});
