import type { StoredFileInfo } from '../storage/file-storage.js';

/** What a request's Range header asks of a file of `size` bytes (RFC 9110 §14). */
export type RangeRequest =
  | { kind: 'whole' }
  | { kind: 'part'; start: number; end: number }
  | { kind: 'unsatisfiable' };

const SINGLE_RANGE = /^bytes=(\d*)-(\d*)$/;

/**
 * One byte range, as browsers ask for video and PDF (`bytes=0-`, `bytes=1000-1999`, `bytes=-500`). Several
 * ranges in one request (multipart/byteranges) get the whole file, which the RFC allows; so does a header
 * that cannot be read. A range that starts past the end gets 416.
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return { kind: 'whole' };
  const match = SINGLE_RANGE.exec(header.replace(/\s+/g, ''));
  if (!match) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    // The last N bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? Number.MAX_SAFE_INTEGER : Number(last);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end < start) return { kind: 'whole' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'part', start, end: Math.min(end, size - 1) };
}

function etagsOf(header: string): string[] {
  return header.split(',').map((tag) => tag.trim());
}

/** If-None-Match (weak comparison, as RFC 9110 says for it), else If-Modified-Since, at one-second precision. */
export function notModified(
  headers: { 'if-none-match'?: string | undefined; 'if-modified-since'?: string | undefined },
  info: StoredFileInfo,
): boolean {
  const noneMatch = headers['if-none-match'];
  if (noneMatch !== undefined) {
    const weakless = (tag: string) => tag.replace(/^W\//, '');
    return etagsOf(noneMatch).some((tag) => tag === '*' || weakless(tag) === weakless(info.etag));
  }
  const since = headers['if-modified-since'];
  if (since === undefined) return false;
  const time = Date.parse(since);
  return !Number.isNaN(time) && Math.floor(info.lastModified.getTime() / 1000) * 1000 <= time;
}

/**
 * If-Range: the range counts only while the file is still the one the client has part of (strong ETag, or
 * exactly its Last-Modified date); otherwise the whole new file is sent.
 */
export function rangeStillValid(ifRange: string | undefined, info: StoredFileInfo): boolean {
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === info.etag;
  const time = Date.parse(value);
  return !Number.isNaN(time) && time === Math.floor(info.lastModified.getTime() / 1000) * 1000;
}
