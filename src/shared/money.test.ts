import { describe, expect, it } from 'vitest';
import {
  currencyExponent,
  formatMoney,
  formatMoneyExact,
  minorToMajorString,
  parseMajorToMinor,
} from './money.js';

describe('money', () => {
  it('knows each currency exponent', () => {
    expect(currencyExponent('usd')).toBe(2);
    expect(currencyExponent('jpy')).toBe(0);
    expect(currencyExponent('kwd')).toBe(3);
  });

  it('converts decimal text to minor units exactly, without floats', () => {
    expect(parseMajorToMinor('19.99', 'usd')).toBe(1999);
    expect(parseMajorToMinor('0.1', 'usd')).toBe(10);
    expect(parseMajorToMinor('1.005', 'kwd')).toBe(1005);
    expect(parseMajorToMinor('1200', 'jpy')).toBe(1200);
    expect(parseMajorToMinor(0.29, 'usd')).toBe(29); // 0.29 * 100 is 28.999999999999996 in floats
    expect(parseMajorToMinor('12.50', 'usd')).toBe(1250);
  });

  it('rejects amounts the currency cannot hold or that are not amounts', () => {
    expect(parseMajorToMinor('1.999', 'usd')).toBeNull();
    expect(parseMajorToMinor('1.5', 'jpy')).toBeNull();
    expect(parseMajorToMinor('-1', 'usd')).toBeNull();
    expect(parseMajorToMinor('1e3', 'usd')).toBeNull();
    expect(parseMajorToMinor('abc', 'usd')).toBeNull();
    expect(parseMajorToMinor('', 'usd')).toBeNull();
    expect(parseMajorToMinor('99999999999999999', 'usd')).toBeNull();
  });

  it('writes minor units back as exact decimal text', () => {
    expect(minorToMajorString(1999, 'usd')).toBe('19.99');
    expect(minorToMajorString(5, 'usd')).toBe('0.05');
    expect(minorToMajorString(1200, 'jpy')).toBe('1200');
    expect(minorToMajorString(1005, 'kwd')).toBe('1.005');
  });

  it('formats for people without ever rounding a price', () => {
    expect(formatMoney(8900, 'usd')).toBe('$89');
    expect(formatMoney(12450, 'usd')).toBe('$124.50');
    expect(formatMoney(9999, 'usd')).toBe('$99.99'); // never rounded up to $100
    expect(formatMoney(1200, 'jpy')).toBe('¥1,200');
    expect(formatMoneyExact(8900, 'usd')).toBe('USD 89.00');
  });

  it('shows the full decimals when asked, as the order emails list amounts', () => {
    const receipt = { decimals: 'always' } as const;
    expect(formatMoney(30, 'usd', receipt)).toBe('$0.30');
    expect(formatMoney(8900, 'usd', receipt)).toBe('$89.00');
    expect(formatMoney(900719925474099, 'usd', receipt)).toBe('$9,007,199,254,740.99');
    expect(formatMoney(5500, 'jpy', receipt)).toBe('¥5,500');
    expect(formatMoney(1234, 'kwd', receipt)).toBe('KWD\u00a01.234');
    expect(formatMoney(-150, 'usd', receipt)).toBe('-$1.50');
  });
});
