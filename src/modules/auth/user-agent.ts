/**
 * A browser's User-Agent header as a person names the device: "Firefox on Windows". Only the common
 * browsers and systems are told apart; anything else is "Unknown browser" or "unknown system", never the
 * raw header (which may be long or made up).
 */
export function describeUserAgent(ua: string | null): string {
  if (!ua) return 'Unknown device';
  const browser = BROWSERS.find(([, pattern]) => pattern.test(ua))?.[0] ?? 'Unknown browser';
  const system = SYSTEMS.find(([, pattern]) => pattern.test(ua))?.[0] ?? 'unknown system';
  return `${browser} on ${system}`;
}

// Order matters: Edge and Opera say Chrome too, Chrome says Safari, iPads and iPhones say Mac OS X.
const BROWSERS: Array<[string, RegExp]> = [
  ['Edge', /\bEdg(e|A|iOS)?\//],
  ['Opera', /\bOPR\//],
  ['Samsung Internet', /\bSamsungBrowser\//],
  ['Firefox', /\b(Firefox|FxiOS)\//],
  ['Chrome', /\b(Chrome|Chromium|CriOS)\//],
  ['Safari', /\bVersion\/[\d.]+.*\bSafari\//],
  ['curl', /^curl\//],
];

const SYSTEMS: Array<[string, RegExp]> = [
  ['iPhone', /\biPhone\b/],
  ['iPad', /\biPad\b/],
  ['Android', /\bAndroid\b/],
  ['Windows', /\bWindows\b/],
  ['macOS', /\bMac OS X\b|\bMacintosh\b/],
  ['ChromeOS', /\bCrOS\b/],
  ['Linux', /\bLinux\b/],
];
