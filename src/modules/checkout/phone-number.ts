import { type CountryCode, isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/min';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** "Pakistan" for PK; the code itself when the runtime does not know it. */
export function countryName(code: string): string {
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * The number in E.164 when it is a valid one for the shipping country (the courier calls it there), else
 * null. Numbers typed nationally ("0300 1234567") or internationally ("+92 300 1234567") both read.
 */
export function phoneForCountry(typed: string, country: string): string | null {
  if (!isSupportedCountry(country)) return null;
  const parsed = parsePhoneNumberFromString(typed, country as CountryCode);
  if (!parsed?.isValid() || parsed.country !== country) return null;
  return parsed.number;
}
