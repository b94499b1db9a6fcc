import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const SESSION_KEY_FILE = 'session.key';

function keyFromSecret(secret: string): Buffer {
  // secure-session wants exactly 32 bytes; any long secret is condensed to that.
  return createHash('sha256').update(secret, 'utf8').digest();
}

function parseKeyLine(line: string): Buffer | null {
  const hex = line.trim();
  return /^[0-9a-f]{64}$/i.test(hex) ? Buffer.from(hex, 'hex') : null;
}

/**
 * The keys that seal session cookies: the first one seals new cookies, all of them open existing ones, so a
 * key can be rotated without signing everybody out at once. From SESSION_SECRET (+ SESSION_SECRET_PREVIOUS),
 * else from DATA_DIR/session.key (one hex key a line, newest first), created with mode 0600 on first start.
 */
export function loadSessionKeys(opts: {
  secret: string | null;
  previousSecrets: string[];
  dataDir: string;
  warn?: (message: string) => void;
}): Buffer[] {
  if (opts.secret) return [opts.secret, ...opts.previousSecrets].map(keyFromSecret);

  const file = path.join(opts.dataDir, SESSION_KEY_FILE);
  mkdirSync(opts.dataDir, { recursive: true });
  try {
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const mode = statSync(file).mode & 0o777;
  if (mode & 0o077) {
    chmodSync(file, 0o600);
    opts.warn?.(`${file} was readable by other users (mode ${mode.toString(8)}); changed it to 600.`);
  }
  const keys = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map(parseKeyLine);
  if (keys.length === 0 || keys.some((k) => k === null)) {
    throw new Error(`${file} must hold one 64-character hex key a line (newest first).`);
  }
  return keys as Buffer[];
}

/** The keys of DATA_DIR/session.key when there is one (none otherwise); never creates the file. */
export function readSessionKeyFile(dataDir: string): Buffer[] {
  let text: string;
  try {
    text = readFileSync(path.join(dataDir, SESSION_KEY_FILE), 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').flatMap((line) => {
    const key = parseKeyLine(line);
    return key ? [key] : [];
  });
}

/** Puts a new key first in the key file, keeping the old ones so that existing sessions stay valid. */
export function rotateSessionKeyFile(dataDir: string, keep = 1): void {
  const file = path.join(dataDir, SESSION_KEY_FILE);
  let existing: string[] = [];
  try {
    existing = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => parseKeyLine(l));
  } catch {
    // no file yet: the new key is the only one
  }
  const lines = [randomBytes(32).toString('hex'), ...existing.slice(0, keep)];
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(`${file}.tmp`, `${lines.join('\n')}\n`, { mode: 0o600 });
  chmodSync(`${file}.tmp`, 0o600);
  // rename is atomic: a crash leaves either the old or the new file, never half of one.
  renameSync(`${file}.tmp`, file);
}
