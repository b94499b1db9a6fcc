import { describe, expect, it } from 'vitest';
import { withoutNul } from './text-without-nul.js';

describe('text written to PostgreSQL', () => {
  it('has U+0000 as U+FFFD, in text and in JSON text, and leaves everything else alone', () => {
    expect(withoutNul('a\u0000b')).toBe('a\uFFFDb');
    expect(withoutNul(JSON.stringify(['a\u0000b']))).toBe('["a\\ufffdb"]');
    expect(JSON.parse(withoutNul(JSON.stringify({ role: '\u0000' })) as string)).toEqual({ role: '\uFFFD' });
    // An escaped backslash followed by "u0000" is text, not a NUL.
    expect(withoutNul(JSON.stringify(['\\u0000']))).toBe(JSON.stringify(['\\u0000']));
    expect(withoutNul('plain \\u0000 text')).toBe('plain \\u0000 text');
    // Lone surrogates become U+FFFD; a real pair (an emoji) stays.
    expect(JSON.parse(withoutNul(JSON.stringify(['a\ud800b', '\udc00'])) as string)).toEqual([
      'a\uFFFDb',
      '\uFFFD',
    ]);
    expect(withoutNul(JSON.stringify(['😀']))).toBe(JSON.stringify(['😀']));
    expect(withoutNul('["\\ud83d\\ude00"]')).toBe('["\\ud83d\\ude00"]');
    expect(withoutNul(42)).toBe(42);
    expect(withoutNul(null)).toBe(null);
  });
});
