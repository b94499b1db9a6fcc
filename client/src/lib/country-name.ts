const regions = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
  } catch {
    return null;
  }
})();

/** 'PK' -> 'Pakistan': a two-letter country code as people read it; the code itself when Intl does not know it. */
export function countryName(code: string): string {
  try {
    return regions?.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}
