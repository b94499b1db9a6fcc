/**
 * Money is an integer count of a currency's minor units plus a lowercase ISO 4217 code (as Stripe stores it).
 * Nothing here uses floating point for amounts: decimal strings are converted digit by digit.
 */

export type Money = { amountMinor: number; currency: string };

/**
 * Stripe's zero- and three-decimal currencies; every other currency has two decimals in Stripe's amounts,
 * which is what amountMinor counts. Intl's display digits are not that: it shows PKR, IDR, HUF, COP, ISK...
 * without decimals, which made "5500" PKR 5500 minor units, and Stripe reads that as PKR 55.00.
 */
const ZERO_DECIMAL = new Set([
  'bif',
  'clp',
  'djf',
  'gnf',
  'jpy',
  'kmf',
  'krw',
  'mga',
  'pyg',
  'rwf',
  'ugx',
  'vnd',
  'vuv',
  'xaf',
  'xof',
  'xpf',
]);
const THREE_DECIMAL = new Set(['bhd', 'jod', 'kwd', 'omr', 'tnd']);

/** Digits after the decimal point in a currency's minor units, as Stripe counts them: 2 usd, 0 jpy, 3 kwd. */
export function currencyExponent(currency: string): number {
  const code = currency.toLowerCase();
  return ZERO_DECIMAL.has(code) ? 0 : THREE_DECIMAL.has(code) ? 3 : 2;
}

export function isKnownCurrency(currency: string): boolean {
  if (!/^[a-zA-Z]{3}$/.test(currency)) return false;
  try {
    return Intl.supportedValuesOf('currency').includes(currency.toUpperCase());
  } catch {
    return false;
  }
}

/** "12.5" usd -> 1250. Returns null for anything that is not an exact non-negative amount in that currency. */
export function parseMajorToMinor(input: string | number, currency: string): number | null {
  const text = typeof input === 'number' ? numberToPlainString(input) : input.trim();
  // Up to 16 whole digits: the largest safe integer has 16, so every amount formatted here reads back.
  const match = /^(\d{1,16})(?:\.(\d+))?$/.exec(text);
  if (!match) return null;
  const exponent = currencyExponent(currency);
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > exponent) return null;
  const minor = Number(whole + fraction.padEnd(exponent, '0'));
  return Number.isSafeInteger(minor) ? minor : null;
}

/** 1250 usd -> "12.50": exact decimal text in major units, as forms and YAML files show it. */
export function minorToMajorString(amountMinor: number, currency: string): string {
  const exponent = currencyExponent(currency);
  const negative = amountMinor < 0;
  const digits = String(Math.abs(amountMinor)).padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = digits.slice(digits.length - exponent);
  return `${negative ? '-' : ''}${whole}${exponent > 0 ? `.${fraction}` : ''}`;
}

/**
 * Formats an amount for people. Intl.NumberFormat is given the exact decimal string, so no float rounding
 * can ever show a price higher or lower than the stored one. Decimals show only when the amount has some
 * ("$89", "$124.50"), unless `decimals: 'always'` asks for the currency's full exponent, as a receipt lists
 * "$89.00" above "$19.99".
 */
export function formatMoney(
  amountMinor: number,
  currency: string,
  options: { locale?: string; display?: 'symbol' | 'code'; decimals?: 'when-needed' | 'always' } = {},
): string {
  const exponent = currencyExponent(currency);
  const whole = amountMinor % 10 ** exponent === 0;
  const formatter = new Intl.NumberFormat(options.locale ?? 'en-US', {
    style: 'currency',
    currency: currency.toUpperCase(),
    currencyDisplay: options.display ?? 'symbol',
    minimumFractionDigits: whole && options.decimals !== 'always' ? 0 : exponent,
    maximumFractionDigits: exponent,
  });
  // format() accepts a decimal string (Intl.NumberFormat v3), keeping the value exact.
  return formatter.format(minorToMajorString(amountMinor, currency) as unknown as number);
}

/** Always shows the currency's full exponent ("USD 89.00"), for prices that must read alike in a list. */
export function formatMoneyExact(amountMinor: number, currency: string): string {
  return `${currency.toUpperCase()} ${minorToMajorString(amountMinor, currency)}`;
}

function numberToPlainString(value: number): string {
  if (!Number.isFinite(value) || value < 0) return '';
  // The shortest text that reads back as this double ("0.29", never 0.28999...). Exponent notation (5e-324,
  // 1e+21) fails the amount pattern, so a float is never rounded into an amount it is not.
  return String(value);
}
