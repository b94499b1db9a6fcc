import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Seals the TOTP secrets kept in the database (AES-256-GCM, a key derived with HKDF from each session key),
 * so a copy of the database or a backup alone does not give anyone the admins' second factor. The first
 * key seals; every key opens, like the session cookies, so SESSION_SECRET can be rotated with the old one
 * kept in SESSION_SECRET_PREVIOUS.
 */
export class SecretBox {
  private readonly keys: Buffer[];

  constructor(sessionKeys: readonly Buffer[]) {
    if (sessionKeys.length === 0) throw new Error('SecretBox needs at least one key');
    this.keys = sessionKeys.map((k) => Buffer.from(hkdfSync('sha256', k, Buffer.alloc(0), INFO, 32)));
  }

  seal(plain: Buffer): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys[0] as Buffer, iv);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return [VERSION, iv, body, cipher.getAuthTag()]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  /** The sealed bytes, or null when no key opens them (a session key dropped since, or a broken value). */
  open(sealed: string): Buffer | null {
    return this.openTelling(sealed)?.plain ?? null;
  }

  /** As open, and whether an older key sealed it (then it is worth sealing again with the current one). */
  openTelling(sealed: string): { plain: Buffer; byOlderKey: boolean } | null {
    const [version, iv, body, tag] = sealed.split('.');
    if (version !== VERSION || !iv || !body || !tag) return null;
    for (const [index, key] of this.keys.entries()) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        const plain = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
        return { plain, byOlderKey: index > 0 };
      } catch {
        // another key sealed it, or nobody did
      }
    }
    return null;
  }
}

const VERSION = 's1';
const INFO = 'store/admin-totp-secret/v1';
