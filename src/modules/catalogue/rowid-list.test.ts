import { describe, expect, it } from 'vitest';
import { parseRowids } from './rowid-list.js';

describe('parseRowids', () => {
  it('reads the joined rowids in their order, whatever commas surround them', () => {
    expect([...parseRowids(null)]).toEqual([]);
    expect([...parseRowids('')]).toEqual([]);
    expect([...parseRowids('7')]).toEqual([7]);
    expect([...parseRowids('3,1,2')]).toEqual([3, 1, 2]);
    expect([...parseRowids(',4,,5,')]).toEqual([4, 5]);
  });

  it('keeps rowids past 2^32 exact, and refuses what is no list of rowids', () => {
    expect([...parseRowids(`1,${2 ** 40 + 3},${2 ** 52}`)]).toEqual([1, 2 ** 40 + 3, 2 ** 52]);
    expect(() => parseRowids('1,2;3')).toThrow(/not a list of rowids/);
    expect(() => parseRowids('1,-2')).toThrow(/not a list of rowids/);
    expect(() => parseRowids(String(2 ** 53))).toThrow(/not a list of rowids/);
    expect(() => parseRowids('12345678901234567890')).toThrow(/not a list of rowids/);
  });
});
