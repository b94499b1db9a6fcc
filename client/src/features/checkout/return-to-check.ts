/**
 * Where the demo page goes after a price difference is paid (`return_to`): only back to a shopper's order
 * page on this site. Anything else (another site, "//evil.example", "/order/../admin", a script URL) is
 * refused, so a crafted payment link cannot send the shopper elsewhere after "paying".
 */
export function safeOrderReturnTo(raw: string | null): string | null {
  // The URL parser drops tabs and newlines and reads a backslash as "/": such text is refused, not repaired.
  const odd = [...(raw ?? '')].some((c) => c === '\\' || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
  if (!raw?.startsWith('/order/') || odd) return null;
  let url: URL;
  try {
    url = new URL(raw, 'https://shop.invalid');
  } catch {
    return null;
  }
  // The parsed path, not the text: dot segments are resolved here as the browser would resolve them.
  if (url.origin !== 'https://shop.invalid' || !/^\/order\/[^/]+$/.test(url.pathname)) return null;
  return `${url.pathname}${url.search}`;
}
