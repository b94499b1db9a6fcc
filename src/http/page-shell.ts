import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export type PageShell = {
  /** The built index.html with its stylesheets inlined. */
  html: string;
  /** CSP sources ('sha256-…') that allow exactly those inlined styles and nothing else. */
  styleHashes: string[];
};

const STYLESHEET = /<link rel="stylesheet"(?: crossorigin)? href="\/(assets\/[\w.-]+\.css)">/g;

/**
 * The page every client route starts from. The storefront's stylesheet (about 7 kB compressed; the admin's
 * styles load with the admin chunk) goes inside the page: a separate file would block the first paint for
 * one more round trip on a phone's connection, and the page is cached and sent compressed anyway. The CSP
 * allows it by hash, so no other inline style runs.
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
    styleHashes.push(`'sha256-${createHash('sha256').update(css).digest('base64')}'`);
    return `<style>${css}</style>`;
  });
  return { html, styleHashes };
}
