/**
 * Money is an integer count of a currency's minor units plus a lowercase ISO 4217 code (as Stripe stores it).
 * Nothing here uses floating point for amounts: decimal strings are converted digit by digit.
 */

export type Money = { amountMinor: number; currency: string };

const exponentCache = new Map<string, number>();

/** Digits after the decimal point for a currency: 2 for usd, 0 for jpy, 3 for kwd. */
export function currencyExponent(currency: string): number {
  const code = currency.toUpperCase();
  const cached = exponentCache.get(code);
  if (cached !== undefined) return cached;
  const digits = new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).resolvedOptions()
    .maximumFractionDigits;
  const exponent = digits ?? 2;
  exponentCache.set(code, exponent);
  return exponent;
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
  const match = /^(\d{1,15})(?:\.(\d+))?$/.exec(text);
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
 * can ever show a price higher or lower than the stored one.
 */
export function formatMoney(
  amountMinor: number,
  currency: string,
  options: { locale?: string; display?: 'symbol' | 'code' } = {},
): string {
  const exponent = currencyExponent(currency);
  const formatter = new Intl.NumberFormat(options.locale ?? 'en-US', {
    style: 'currency',
    currency: currency.toUpperCase(),
    currencyDisplay: options.display ?? 'symbol',
    minimumFractionDigits: amountMinor % 10 ** exponent === 0 ? 0 : exponent,
    maximumFractionDigits: exponent,
  });
  // format() accepts a decimal string (Intl.NumberFormat v3), keeping the value exact.
  return formatter.format(minorToMajorString(amountMinor, currency) as unknown as number);
}

/** Always shows the currency's full exponent: "USD 89.00", used where the spec asks for 2 decimals. */
export function formatMoneyExact(amountMinor: number, currency: string): string {
  return `${currency.toUpperCase()} ${minorToMajorString(amountMinor, currency)}`;
}

function numberToPlainString(value: number): string {
  if (!Number.isFinite(value) || value < 0) return '';
  // Up to 15 significant digits, the most a double holds exactly; strips exponent notation.
  return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
}
