import path from 'node:path';

/**
 * Content types by extension, for every kind of file the store writes (file-type.ts decides uploads from
 * their bytes and names them with these extensions; the demo ships SVG; catalogue files are YAML).
 * Anything else is sent as bytes, never guessed.
 */
const TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain; charset=utf-8',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.yaml': 'application/yaml; charset=utf-8',
  '.yml': 'application/yaml; charset=utf-8',
};

export function contentTypeFor(key: string): string {
  return TYPES[path.posix.extname(key).toLowerCase()] ?? 'application/octet-stream';
}
