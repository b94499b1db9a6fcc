/**
 * Where each kind of file lives in the file storage, and what a key may look like. Keys are relative
 * paths with forward slashes; the orphan sweep and backups walk these prefixes.
 */

/**
 * Uploaded product media and the banner image, under generated names. The media module deletes only keys
 * under it.
 */
export const UPLOADS_PREFIX = 'media/uploads/';

/** Catalogue version files (YAML exports, imports and backups). */
export const CATALOG_PREFIX = 'catalogs/';

/** Served to anyone under /media/; nothing else in the storage ever is. */
export const PUBLIC_MEDIA_PREFIX = 'media/';

/**
 * Each part starts with a letter or digit (no "..", no hidden files) and uses only characters that mean the
 * same on every filesystem and in S3 and in a URL, so a key never needs escaping anywhere it goes.
 */
const SAFE_KEY = /^[a-zA-Z0-9][a-zA-Z0-9._-]*(\/[a-zA-Z0-9][a-zA-Z0-9._-]*)*$/;
/** Below S3's 1024 bytes and Linux's 4096-byte paths, whatever the local root adds. */
export const MAX_KEY_LENGTH = 512;
/** Below the 255 bytes of a file name, with room for LocalFileStorage's temporary suffix. */
const MAX_PART_LENGTH = 200;

export class UnsafeStorageKey extends Error {
  override name = 'UnsafeStorageKey';
  constructor(key: string) {
    // Shortened: the key may be a hostile megabyte of text, and this message ends up in logs.
    super(`Unsafe storage key: ${JSON.stringify(key.length > 80 ? `${key.slice(0, 80)}…` : key)}`);
  }
}

export function isSafeKey(key: string): boolean {
  if (key.length > MAX_KEY_LENGTH || !SAFE_KEY.test(key)) return false;
  return key.split('/').every((part) => part !== '..' && part !== '.' && part.length <= MAX_PART_LENGTH);
}

/** Keys come from our own code, but a bad one must never reach a path on disk or another bucket prefix. */
export function checkKey(key: string): string {
  if (!isSafeKey(key)) throw new UnsafeStorageKey(key);
  return key;
}

/**
 * A prefix for `list`: empty, or the start of a safe key (a folder such as "media/uploads/" or a name's
 * beginning such as "catalogs/catalog-export-").
 */
export function checkPrefix(prefix: string): string {
  if (prefix === '') return prefix;
  const probe = prefix.endsWith('/') ? `${prefix}x` : prefix;
  if (!isSafeKey(probe)) throw new UnsafeStorageKey(prefix);
  return prefix;
}
