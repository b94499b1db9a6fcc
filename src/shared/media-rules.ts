/**
 * Media rules shared by the server (Zod schemas, upload route) and the admin client (form checks). No
 * imports: the client bundles this file as it is.
 */
export const MAX_MEDIA_PER_PRODUCT = 20;
export const MEDIA_TYPES = ['image', 'pdf', 'txt', 'video'] as const;
export type MediaTypeName = (typeof MEDIA_TYPES)[number];
export const MAX_URL_LENGTH = 2048;
export const MAX_FILE_NAME_LENGTH = 200;
export const MAX_ALT_TEXT_LENGTH = 500;

export const MEDIA_MESSAGES = {
  invalidUrl: 'Please enter a valid URL',
  missingFileName: 'Please enter a file name',
  limitReached: `Maximum ${MAX_MEDIA_PER_PRODUCT} media items allowed per product`,
} as const;

export function slotsUsedText(n: number): string {
  return `${n} of ${MAX_MEDIA_PER_PRODUCT} media slots used.`;
}

/** An http(s) URL, or a path on this site under /media/ (no `..`, no backslashes, no `//`). */
export function isValidMediaUrl(value: string): boolean {
  const url = value.trim();
  if (url === '' || url.length > MAX_URL_LENGTH) return false;
  // The URL parser skips control characters that the stored text keeps: "\0https://..." parsed fine and then
  // failed the media table's length CHECK (SQLite's length() stops at NUL) as a 500.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
  if (/[\u0000-\u001f\u007f]/.test(url)) return false;
  if (url.startsWith('/')) {
    if (!url.startsWith('/media/') || url.length === '/media/'.length) return false;
    if (/[\\\s]|\/\//.test(url)) return false;
    const pathPart = url.split(/[?#]/)[0] ?? '';
    return !pathPart.split('/').some((seg) => seg === '..' || seg === '.' || /%2e%2e|%2f|%5c/i.test(seg));
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
}

/**
 * A display name from whatever the client sent: no folders, no control characters, trimmed and at most
 * MAX_FILE_NAME_LENGTH characters (keeping the extension when it has to cut). Empty when nothing is left.
 */
export function cleanFileName(raw: string): string {
  const base = raw.normalize('NFC').split(/[/\\]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
  const cleaned = base.replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  if (cleaned === '.' || cleaned === '..') return '';
  const chars = Array.from(cleaned);
  if (chars.length <= MAX_FILE_NAME_LENGTH) return cleaned;
  const dot = cleaned.lastIndexOf('.');
  const ext = dot > 0 ? Array.from(cleaned.slice(dot)) : [];
  if (ext.length > 0 && ext.length <= 16) {
    return chars.slice(0, MAX_FILE_NAME_LENGTH - ext.length).join('') + ext.join('');
  }
  return chars.slice(0, MAX_FILE_NAME_LENGTH).join('');
}
