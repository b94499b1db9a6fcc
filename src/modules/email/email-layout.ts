/**
 * The pieces every order email is built of: escaping, one accessible HTML page with inline styles (mail
 * clients drop style sheets), and no images at all, so nothing is fetched from a server when it is opened.
 * Colours keep WCAG AA contrast on white: ink #1c1917 (17:1), muted #57534e (7.6:1), maroon #7f1d1d (10:1).
 */

const INK = '#1c1917';
const MUTED = '#57534e';
const ACCENT = '#7f1d1d';
const LINE = '#d6d3d1';
const FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

/** Every value put into the HTML goes through this: names, titles and addresses are people's input. */
export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** Only absolute http(s) links become links; anything else is shown as text or left out. */
export function isWebUrl(value: string | null | undefined): value is string {
  if (!value || !/^https?:\/\//i.test(value)) return false;
  return URL.canParse(value);
}

/** One line of text for a subject or a table cell: no line breaks, no runs of spaces, at most `max`. */
export function oneLine(value: string, max = 200): string {
  const line = value.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export const style = {
  h1: `margin:0 0 16px;font-size:24px;line-height:1.3;color:${INK};`,
  h2: `margin:28px 0 8px;font-size:18px;line-height:1.3;color:${INK};`,
  p: `margin:0 0 12px;font-size:16px;line-height:1.5;color:${INK};`,
  muted: `margin:0 0 12px;font-size:14px;line-height:1.5;color:${MUTED};`,
  link: `color:${ACCENT};text-decoration:underline;`,
  button: `display:inline-block;padding:12px 20px;border-radius:6px;background:${ACCENT};color:#ffffff;font-weight:600;text-decoration:none;font-size:16px;`,
  table: `width:100%;border-collapse:collapse;font-size:15px;line-height:1.4;color:${INK};`,
  caption: `text-align:left;font-weight:600;padding:0 0 8px;color:${INK};`,
  th: `text-align:left;padding:8px;border-bottom:2px solid ${LINE};font-weight:600;color:${INK};`,
  thNum: `text-align:right;padding:8px;border-bottom:2px solid ${LINE};font-weight:600;color:${INK};`,
  td: `text-align:left;padding:8px;border-bottom:1px solid ${LINE};vertical-align:top;color:${INK};`,
  tdNum: `text-align:right;padding:8px;border-bottom:1px solid ${LINE};vertical-align:top;white-space:nowrap;color:${INK};`,
  rowHead: `text-align:right;padding:8px;font-weight:400;color:${INK};`,
  rowHeadStrong: `text-align:right;padding:8px;font-weight:700;color:${INK};`,
  small: `font-size:13px;color:${MUTED};`,
  address: `margin:0 0 12px;font-style:normal;font-size:16px;line-height:1.5;color:${INK};`,
} as const;

/**
 * The whole document: language, title, a main landmark with the store's name above and `footer` below. The
 * body's parts arrive as HTML already escaped by their builders.
 */
export function emailDocument(parts: {
  title: string;
  storeName: string;
  body: string;
  footer: string;
}): string {
  return `<!DOCTYPE html>
<html lang="en" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="supported-color-schemes" content="light">
<title>${escapeHtml(parts.title)}</title>
</head>
<body style="margin:0;padding:0;background:#ffffff;color:${INK};font-family:${FONT};">
<div role="article" aria-roledescription="email" aria-label="${escapeHtml(parts.title)}" lang="en" style="max-width:640px;margin:0 auto;padding:24px 16px;">
<header><p style="margin:0 0 24px;font-size:18px;font-weight:700;color:${ACCENT};">${escapeHtml(parts.storeName)}</p></header>
<main>
${parts.body}
</main>
<footer style="margin-top:32px;padding-top:16px;border-top:1px solid ${LINE};">
${parts.footer}
</footer>
</div>
</body>
</html>
`;
}

/** Amounts in emails always show their minor digits ("$89.00"), as a receipt does. */
export const RECEIPT = { decimals: 'always' } as const;

/** "Hello Ayesha," from the name the shopper gave, or "Hello," without one. */
export function greeting(customerName: string | null): string {
  const first = customerName ? oneLine(customerName, 100) : '';
  return first ? `Hello ${first},` : 'Hello,';
}
