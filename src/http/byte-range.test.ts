import { describe, expect, it } from 'vitest';
import { notModified, parseRange, rangeStillValid } from './byte-range.js';

const info = { size: 100, etag: '"abc"', lastModified: new Date('2026-11-22T10:00:00.250Z') };

describe('byte ranges and validators for /media', () => {
  it('reads one range and clamps its end to the file', () => {
    expect(parseRange(undefined, 100)).toEqual({ kind: 'whole' });
    expect(parseRange('bytes=0-0', 100)).toEqual({ kind: 'part', start: 0, end: 0 });
    expect(parseRange('bytes = 10 - 19', 100)).toEqual({ kind: 'part', start: 10, end: 19 });
    expect(parseRange('bytes=90-', 100)).toEqual({ kind: 'part', start: 90, end: 99 });
    expect(parseRange('bytes=90-5000', 100)).toEqual({ kind: 'part', start: 90, end: 99 });
    expect(parseRange('bytes=-1000', 100)).toEqual({ kind: 'part', start: 0, end: 99 });
    expect(parseRange('bytes=100-', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-5', 0)).toEqual({ kind: 'unsatisfiable' });
    for (const header of [
      'bytes=1-2,4-5',
      'bytes=5-1',
      'lines=1-2',
      'bytes=1e3-',
      `bytes=${'9'.repeat(30)}-`,
    ])
      expect(parseRange(header, 100), header).toEqual({ kind: 'whole' });
  });

  it('compares ETags weakly for If-None-Match and dates by the second', () => {
    expect(notModified({ 'if-none-match': '"abc"' }, info)).toBe(true);
    expect(notModified({ 'if-none-match': 'W/"abc"' }, info)).toBe(true);
    expect(notModified({ 'if-none-match': '*' }, info)).toBe(true);
    expect(notModified({ 'if-none-match': '"x", "y"' }, info)).toBe(false);
    // If-None-Match wins over a date that would say "not modified".
    expect(
      notModified({ 'if-none-match': '"x"', 'if-modified-since': info.lastModified.toUTCString() }, info),
    ).toBe(false);
    expect(notModified({ 'if-modified-since': info.lastModified.toUTCString() }, info)).toBe(true);
    expect(notModified({ 'if-modified-since': 'Sun, 22 Nov 2026 09:59:59 GMT' }, info)).toBe(false);
    expect(notModified({ 'if-modified-since': 'yesterday' }, info)).toBe(false);
  });

  it('keeps a range under If-Range only for the same file (strong ETag or its exact date)', () => {
    expect(rangeStillValid(undefined, info)).toBe(true);
    expect(rangeStillValid('"abc"', info)).toBe(true);
    expect(rangeStillValid('W/"abc"', info)).toBe(false);
    expect(rangeStillValid('"old"', info)).toBe(false);
    expect(rangeStillValid(info.lastModified.toUTCString(), info)).toBe(true);
    expect(rangeStillValid('Sun, 22 Nov 2026 09:00:00 GMT', info)).toBe(false);
  });
});
