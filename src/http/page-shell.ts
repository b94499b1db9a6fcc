import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export type PageShell = {
  /** The built index.html with its stylesheets inlined. */
  html: string;
  /** CSP sources ('sha256-…') that allow exactly those inlined styles and nothing else. */
  styleHashes: string[];
  /**
   * The script that starts the app on server-rendered pages (client/public/boot.js), to be inlined there
   * (storefront-page.ts), or null to leave it a file. `scriptHashes` allows exactly it.
   */
  boot: string | null;
  scriptHashes: string[];
};

const STYLESHEET = /<link rel="stylesheet"(?: crossorigin)? href="\/(assets\/[\w.-]+\.css)">/g;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * The page every client route starts from. The storefront's stylesheet (about 7 kB compressed; the admin's
 * styles load with the admin chunk) goes inside the page: a separate file would block the first paint for
 * one more round trip on a phone's connection, and the page is cached and sent compressed anyway. The CSP
 * allows it by hash, so no other inline style runs. The boot script (1 kB) goes inside rendered pages for
 * the same reason: as a file it was one more request, on a connection of its own, before the app could start.
 */
export function readPageShell(clientDir: string | null): PageShell | null {
  const indexFile = clientDir ? path.join(clientDir, 'index.html') : null;
  if (!clientDir || !indexFile || !existsSync(indexFile)) return null;
  const styleHashes: string[] = [];
  const html = readFileSync(indexFile, 'utf8').replace(STYLESHEET, (tag, file: string) => {
    const cssFile = path.join(clientDir, file);
    if (!existsSync(cssFile)) return tag;
    // A `</style>` inside the CSS would end the element early; keep the link for such a file.
    const css = readFileSync(cssFile, 'utf8');
    if (/<\/style/i.test(css)) return tag;
    styleHashes.push(sha256(css));
    return `<style>${css}</style>`;
  });
  const bootFile = path.join(clientDir, 'boot.js');
  // Its comments (whole lines only: `//` and one-line `/** */`) stay in the file, not in every page.
  const bootText = existsSync(bootFile)
    ? readFileSync(bootFile, 'utf8').replace(/^[ \t]*(?:\/\/.*|\/\*\*.*\*\/[ \t]*)\r?\n/gm, '')
    : null;
  // Likewise a `</script` would end the element: such a script stays a file.
  const boot = bootText !== null && !/<\/script/i.test(bootText) ? bootText : null;
  return { html, styleHashes, boot, scriptHashes: boot === null ? [] : [sha256(boot)] };
}
