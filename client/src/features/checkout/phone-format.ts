import { type CountryCode, getExampleNumber, isValidPhoneNumber } from 'libphonenumber-js/min';
import examples from 'libphonenumber-js/mobile/examples';

/**
 * A country's phone numbers, by the same library and metadata ("min") the server checks them with. Loaded
 * only when a shopper chooses cash on delivery or bank transfer (offline-order-form.tsx imports this file
 * lazily): its metadata never weighs on the home page or on a card checkout.
 */
export function phoneFormat(country: string): { example: string | null; valid: (phone: string) => boolean } {
  const code = country.toUpperCase() as CountryCode;
  let example: string | null = null;
  try {
    example = getExampleNumber(code, examples)?.formatNational() ?? null;
  } catch {
    example = null;
  }
  return {
    example,
    valid(phone) {
      try {
        return isValidPhoneNumber(phone, code);
      } catch {
        // A country the metadata does not know: the server decides.
        return true;
      }
    },
  };
}
