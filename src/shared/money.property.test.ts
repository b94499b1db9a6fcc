import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { currencyExponent, formatMoney, minorToMajorString, parseMajorToMinor } from './money.js';

/**
 * Money parsing and formatting against generated amounts: exact integer minor units survive formatting and
 * parsing unchanged in every currency (exponents 0, 2 and 3), and anything that is not an exact amount in the
 * currency (too many decimals, floats that are not what they look like, signs, exponents, other digits) is
 * refused rather than rounded.
 */

/** Currencies with 0, 2 and 3 decimal places. */
const CURRENCIES = [
  'usd',
  'eur',
  'pkr',
  'idr',
  'isk',
  'gbp',
  'jpy',
  'krw',
  'clp',
  'kwd',
  'bhd',
  'omr',
] as const;
const currency = fc.constantFrom(...CURRENCIES);
/** Every amount a product can hold: small everyday prices and the whole safe-integer range. */
const minor = fc.oneof(
  fc.nat(1_000_000),
  fc.nat({ max: Number.MAX_SAFE_INTEGER }),
  fc.constantFrom(0, 1, 9, 10, 99, 100, 10 ** 15 - 1, 10 ** 15, Number.MAX_SAFE_INTEGER),
);

describe('money (property-based)', () => {
  it('covers currencies of every exponent', () => {
    expect(new Set(CURRENCIES.map(currencyExponent))).toEqual(new Set([0, 2, 3]));
  });

  it("counts minor units as Stripe does, not as Intl displays them (PKR 5500 is 550000, not Stripe's PKR 55)", () => {
    for (const c of ['pkr', 'idr', 'huf', 'isk', 'cop', 'usd', 'inr', 'aed'])
      expect(currencyExponent(c), c).toBe(2);
    for (const c of ['jpy', 'krw', 'clp', 'vnd', 'ugx', 'xof']) expect(currencyExponent(c), c).toBe(0);
    for (const c of ['kwd', 'bhd', 'omr', 'jod', 'tnd']) expect(currencyExponent(c), c).toBe(3);
    expect(parseMajorToMinor('5500', 'pkr')).toBe(550_000);
    expect(parseMajorToMinor('5500.50', 'PKR')).toBe(550_050);
  });

  it('parse(format(x)) == x for every integer amount in minor units', () => {
    fc.assert(
      fc.property(minor, currency, (x, c) => {
        expect(parseMajorToMinor(minorToMajorString(x, c), c)).toBe(x);
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps the amount through surrounding spaces and trailing zeros', () => {
    fc.assert(
      fc.property(minor, currency, fc.nat(4), fc.constantFrom('', ' ', '\t', '\n '), (x, c, zeros, pad) => {
        const text = minorToMajorString(x, c);
        const withZeros = currencyExponent(c) === 0 ? text : `${text}${'0'.repeat(zeros)}`;
        expect(parseMajorToMinor(`${pad}${withZeros}${pad}`, c)).toBe(x);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses decimals with more places than the currency has', () => {
    fc.assert(
      fc.property(minor, currency, fc.stringMatching(/^[0-9]{0,5}[1-9]$/), (x, c, extra) => {
        const text = minorToMajorString(x, c);
        const tooPrecise = currencyExponent(c) === 0 ? `${text}.${extra}` : `${text}${extra}`;
        expect(parseMajorToMinor(tooPrecise, c)).toBeNull();
      }),
      { numRuns: 2000 },
    );
  });

  it('takes a float only when it is exactly an amount of the currency, never a rounded one', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e12, noNaN: true }), currency, (value, c) => {
        const parsed = parseMajorToMinor(value, c);
        if (parsed === null) return;
        // Accepted means the decimal amount is the same number the float is, not a neighbour of it.
        expect(Number(minorToMajorString(parsed, c))).toBe(value);
      }),
      { numRuns: 3000 },
    );
    for (const c of CURRENCIES) {
      expect(parseMajorToMinor(0.1 + 0.2, c)).toBeNull();
      for (const bad of [-1, -0.01, Number.NaN, Number.POSITIVE_INFINITY, 1e21, 2 ** 53 + 2]) {
        expect(parseMajorToMinor(bad, c), `${bad} ${c}`).toBeNull();
      }
    }
  });

  it('refuses any text that is not plain ASCII digits with an optional decimal point', () => {
    const piece = fc.constantFrom(
      '1',
      '0',
      '.',
      '-',
      '+',
      'e',
      'E',
      ',',
      ' ',
      '_',
      '١',
      '٫',
      '０',
      'x',
      '$',
      '\u0000',
      'Infinity',
      'NaN',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 20 }),
          fc.array(piece, { maxLength: 12 }).map((p) => p.join('')),
        ),
        currency,
        (text, c) => {
          const parsed = parseMajorToMinor(text, c);
          if (parsed !== null) {
            expect(text.trim()).toMatch(/^[0-9]+(\.[0-9]+)?$/);
            expect(Number.isSafeInteger(parsed) && parsed >= 0).toBe(true);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('formats for people without changing the amount (what is shown parses back to it)', () => {
    fc.assert(
      fc.property(minor, currency, fc.constantFrom('symbol' as const, 'code' as const), (x, c, display) => {
        const shown = formatMoney(x, c, { display });
        const digits = shown.replace(/[^0-9.]/g, '').replace(/^\.+|\.+$/g, '');
        expect(parseMajorToMinor(digits, c), shown).toBe(x);
      }),
      { numRuns: 2000 },
    );
  });
});
