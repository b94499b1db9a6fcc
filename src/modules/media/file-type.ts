import type { MediaType } from '../../db/database.js';

/** What an uploaded file is, decided from its bytes only (never its name or the client's mimetype). */
export type DetectedFile = {
  mediaType: MediaType;
  /** The extension we store it under. */
  ext: 'jpg' | 'png' | 'webp' | 'avif' | 'gif' | 'pdf' | 'txt' | 'mp4' | 'webm';
  contentType: string;
};

export type Sniffed = { ok: true; file: DetectedFile } | { ok: false; reason: 'markup' | 'unsupported' };

/** Bytes needed to recognise every binary signature below. */
export const SNIFF_BYTES = 4096;

const MB = 1024 * 1024;
/** Per-type size limits, checked while the file streams in. */
export const SIZE_LIMITS: Record<MediaType, number> = {
  image: 15 * MB,
  video: 100 * MB,
  pdf: 10 * MB,
  txt: 10 * MB,
};
/** The largest any one file may be, whatever it turns out to be. */
export const MAX_FILE_BYTES = Math.max(...Object.values(SIZE_LIMITS));

export const ACCEPTED_TYPES_TEXT =
  'Upload JPEG, PNG, WebP, AVIF or GIF images, PDF, plain text (UTF-8), MP4 or WebM video.';

const JPEG: DetectedFile = { mediaType: 'image', ext: 'jpg', contentType: 'image/jpeg' };
const PNG: DetectedFile = { mediaType: 'image', ext: 'png', contentType: 'image/png' };
const GIF: DetectedFile = { mediaType: 'image', ext: 'gif', contentType: 'image/gif' };
const WEBP: DetectedFile = { mediaType: 'image', ext: 'webp', contentType: 'image/webp' };
const AVIF: DetectedFile = { mediaType: 'image', ext: 'avif', contentType: 'image/avif' };
const PDF: DetectedFile = { mediaType: 'pdf', ext: 'pdf', contentType: 'application/pdf' };
const TXT: DetectedFile = { mediaType: 'txt', ext: 'txt', contentType: 'text/plain; charset=utf-8' };
const MP4: DetectedFile = { mediaType: 'video', ext: 'mp4', contentType: 'video/mp4' };
const WEBM: DetectedFile = { mediaType: 'video', ext: 'webm', contentType: 'video/webm' };

const MP4_BRANDS = new Set([
  'isom',
  'iso2',
  'iso3',
  'iso4',
  'iso5',
  'iso6',
  'mp41',
  'mp42',
  'avc1',
  'M4V ',
  'M4VP',
  'dash',
  'mmp4',
]);
const AVIF_BRANDS = new Set(['avif', 'avis']);

function startsWith(buf: Uint8Array, bytes: readonly number[], offset = 0): boolean {
  if (buf.length < offset + bytes.length) return false;
  return bytes.every((b, i) => buf[offset + i] === b);
}

function ascii(buf: Uint8Array, start: number, end: number): string {
  return Buffer.from(buf.subarray(start, Math.min(end, buf.length))).toString('latin1');
}

/** ISO base media (MP4, AVIF, HEIC, MOV...): box size, "ftyp", major brand, then compatible brands. */
function isoBrands(head: Uint8Array): string[] | null {
  if (head.length < 12 || ascii(head, 4, 8) !== 'ftyp') return null;
  const boxSize = Buffer.from(head.subarray(0, 4)).readUInt32BE(0);
  const end = Math.min(boxSize >= 16 ? boxSize : 16, head.length, 256);
  const brands = [ascii(head, 8, 12)];
  for (let i = 16; i + 4 <= end; i += 4) brands.push(ascii(head, i, i + 4));
  return brands;
}

/**
 * Recognises the start of a file (at least SNIFF_BYTES, or all of it when shorter). Text needs the whole
 * file: `sniff` answers `txt` provisionally for text-looking heads, and `checkText` confirms at the end.
 */
export function sniff(head: Uint8Array): Sniffed {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { ok: true, file: JPEG };
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { ok: true, file: PNG };
  const six = ascii(head, 0, 6);
  if (six === 'GIF87a' || six === 'GIF89a') return { ok: true, file: GIF };
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return { ok: true, file: WEBP };
  if (ascii(head, 0, 5) === '%PDF-') return { ok: true, file: PDF };
  const brands = isoBrands(head);
  if (brands) {
    const [major] = brands;
    if (major && AVIF_BRANDS.has(major)) return { ok: true, file: AVIF };
    if (major && MP4_BRANDS.has(major)) return { ok: true, file: MP4 };
    return { ok: false, reason: 'unsupported' };
  }
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) {
    // EBML: WebM and Matroska share it; the DocType in the header tells them apart.
    return ascii(head, 4, 64).includes('webm')
      ? { ok: true, file: WEBM }
      : { ok: false, reason: 'unsupported' };
  }
  return checkText(head, false);
}

const MARKUP_START = /^\s*<(?:[!?]|[a-z][\w:-]*(?:[\s/>]|$))/i;
const DANGEROUS_TAG = /<\s*(?:script|svg|html|iframe|object|embed|body|head|meta|link|style|form|xml)\b/i;
/** Control characters other than tab, newlines, form feed and escape: a binary file, not text. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const BINARY_CONTROL = /[\u0001-\u0008\u000e-\u001a\u001c-\u001f\u007f]/;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Plain text: valid UTF-8, no NUL byte, and not markup (an HTML or SVG file would otherwise pass as text).
 * `complete` says whether `bytes` is the whole file; a head may end in the middle of a character.
 */
export function checkText(bytes: Uint8Array, complete = true): Sniffed {
  if (bytes.length === 0) return { ok: false, reason: 'unsupported' };
  if (bytes.includes(0)) return { ok: false, reason: 'unsupported' };
  let text: string;
  try {
    text = complete ? utf8.decode(bytes) : decodeHead(bytes);
  } catch {
    return { ok: false, reason: 'unsupported' };
  }
  const body = text.replace(/^\uFEFF/, '');
  if (MARKUP_START.test(body) || DANGEROUS_TAG.test(body)) return { ok: false, reason: 'markup' };
  if (BINARY_CONTROL.test(body)) return { ok: false, reason: 'unsupported' };
  return { ok: true, file: TXT };
}

function decodeHead(bytes: Uint8Array): string {
  // Streaming mode holds back an incomplete last character instead of failing; invalid bytes still throw.
  return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes, { stream: true });
}
