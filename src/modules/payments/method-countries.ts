/** A method's countries: an empty list offers it wherever the store ships. */
export function offeredIn(countries: readonly string[], country: string): boolean {
  return countries.length === 0 || countries.includes(country);
}

/** The reason a method is refused for a shipping country. */
export const notForCountry = (label: string) => `${label} is not available for this country.`;
