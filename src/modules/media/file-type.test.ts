import { describe, expect, it } from 'vitest';
import { cleanFileName, isValidMediaUrl } from '../../shared/media-rules.js';
import { parseVariants, responsiveFields, responsiveImage } from '../../shared/responsive-image.js';
import { checkText, sniff } from './file-type.js';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));
const ftyp = (brand: string) => bytes([0, 0, 0, 0x18], 'ftyp', brand, [0, 0, 0, 0], brand, 'mif1');

describe('sniff', () => {
  it.each([
    ['JPEG', bytes([0xff, 0xd8, 0xff, 0xe0]), 'jpg'],
    ['PNG', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 'png'],
    ['GIF', bytes('GIF89a'), 'gif'],
    ['WebP', bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '), 'webp'],
    ['AVIF', ftyp('avif'), 'avif'],
    ['MP4', ftyp('isom'), 'mp4'],
    ['WebM', bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x84], 'webm'), 'webm'],
    ['PDF', bytes('%PDF-1.7\n'), 'pdf'],
    ['UTF-8 text', bytes('Chest 36 in — größe M\n'), 'txt'],
  ])('recognises %s', (_label, head, ext) => {
    const result = sniff(head);
    expect(result.ok && result.file.ext).toBe(ext);
  });

  it.each([
    ['HTML', bytes('<!DOCTYPE html><html></html>'), 'markup'],
    ['SVG', bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'markup'],
    ['XML-prefixed SVG', bytes('\uFEFF<?xml version="1.0"?><svg/>'), 'markup'],
    ['text hiding a script', bytes('hello\n<script>alert(1)</script>'), 'markup'],
    ['ELF', bytes([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0]), 'unsupported'],
    ['HEIC', ftyp('heic'), 'unsupported'],
    ['QuickTime', ftyp('qt  '), 'unsupported'],
    ['Latin-1 text', bytes([0x63, 0x61, 0x66, 0xe9, 0x20, 0x21]), 'unsupported'],
    ['text with NUL', bytes('abc', [0], 'def'), 'unsupported'],
  ])('refuses %s', (_label, head, reason) => {
    expect(sniff(head)).toEqual({ ok: false, reason });
  });

  it('accepts a text head cut in the middle of a character, but not a whole file that ends so', () => {
    const text = Buffer.from('ä'.repeat(10));
    expect(checkText(text.subarray(0, 5), false).ok).toBe(true);
    expect(checkText(text.subarray(0, 5), true).ok).toBe(false);
  });
});

describe('media rules', () => {
  it('accepts http(s) URLs and /media/ paths only', () => {
    expect(isValidMediaUrl('https://cdn.example/a.jpg')).toBe(true);
    expect(isValidMediaUrl('/media/uploads/a.webp')).toBe(true);
    for (const bad of [
      '/media/',
      '/media/a/../../x',
      '/media\\a',
      'mailto:a@b.c',
      'https://',
      '/other/a.jpg',
    ]) {
      expect(isValidMediaUrl(bad)).toBe(false);
    }
  });

  it('cleans file names to a plain, bounded label', () => {
    expect(cleanFileName('C:\\Users\\me\\photo.JPG')).toBe('photo.JPG');
    expect(cleanFileName('a\u202Egpj.exe')).toBe('agpj.exe');
    expect(cleanFileName('..')).toBe('');
    const long = cleanFileName(`${'x'.repeat(300)}.jpeg`);
    expect(long).toHaveLength(200);
    expect(long.endsWith('.jpeg')).toBe(true);
  });
});

describe('responsive images', () => {
  const v = (width: number, format: 'webp' | 'avif') => ({
    url: `/media/uploads/a-${width}.${format}`,
    width,
    format,
    storageKey: `media/uploads/a-${width}.${format}`,
  });

  it('builds srcsets, with AVIF only when every width has one', () => {
    const all = [v(640, 'webp'), v(320, 'webp'), v(320, 'avif'), v(640, 'avif')];
    expect(responsiveFields(all, 640, 480)).toEqual({
      srcSet: '/media/uploads/a-320.webp 320w, /media/uploads/a-640.webp 640w',
      avifSrcSet: '/media/uploads/a-320.avif 320w, /media/uploads/a-640.avif 640w',
      width: 640,
      height: 480,
    });
    expect(responsiveFields([v(320, 'webp'), v(640, 'webp'), v(320, 'avif')], 640, 480)).not.toHaveProperty(
      'avifSrcSet',
    );
    expect(responsiveFields([], null, null)).toEqual({});
  });

  it('reads variants and responsive fields defensively', () => {
    expect(parseVariants('not json')).toEqual([]);
    expect(parseVariants('[{"url":1}]')).toEqual([]);
    expect(responsiveImage({ url: '/a.svg', alt: 'x' })).toBeNull();
    expect(responsiveImage({ srcSet: 'a 1w', width: 1, height: 2 })).toEqual({
      srcSet: 'a 1w',
      width: 1,
      height: 2,
    });
  });
});
