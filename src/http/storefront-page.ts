import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { colourSlug, MAX_COLOUR_NAME } from '../shared/colours.js';
import {
  COLOUR_PAGE_PARAM,
  LISTING_PARAMS,
  QUERY_STATE_ID,
  type RenderPage,
  type ServerQuery,
} from '../shared/ssr-contract.js';
import { injectHead, type PageHead } from './seo.js';

/**
 * Pages rendered on the server: the ones a shopper lands on from a search engine or a shared link, and the
 * pages a payment provider sends the shopper back to that are the same for everyone (a cancelled payment).
 * The shopper's order page is rendered too, by its own route (order-page.ts), never cached.
 */
const RENDERED = [
  /^\/$/,
  /^\/product\/[^/]+\/?$/,
  /^\/about\/?$/,
  /^\/accessibility\/?$/,
  /^\/checkout\/cancel\/?$/,
  /^\/canceled\/?$/,
];

export function isRenderedPage(pathname: string): boolean {
  return RENDERED.some((r) => r.test(pathname));
}

const PRODUCT_PAGE = /^\/product\/[^/]+\/?$/;

/** The part of a page's query string its render depends on, in the order given. */
export function pageSearch(pathname: string, search: string): string {
  if (search === '') return '';
  if (PRODUCT_PAGE.test(pathname)) {
    // A product page reads only its colour, and by its slug: "Teal", "teal" and "TEAL" share one page.
    const asked = new URLSearchParams(search).get(COLOUR_PAGE_PARAM)?.slice(0, MAX_COLOUR_NAME * 2) ?? '';
    const slug = colourSlug(asked);
    return slug ? new URLSearchParams({ [COLOUR_PAGE_PARAM]: slug }).toString() : '';
  }
  if (pathname !== '/') return '';
  const params = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const [name, value] of params) if (LISTING_PARAMS.has(name)) kept.append(name, value);
  return kept.toString();
}

/** The server bundle of the client (vite build --ssr); absent in development and API-only tests. */
export async function loadRenderer(ssrDir: string | null): Promise<RenderPage | null> {
  const file = ssrDir ? path.join(ssrDir, 'entry-server.js') : null;
  if (!file || !existsSync(file)) return null;
  const mod = (await import(pathToFileURL(file).href)) as { renderPage?: RenderPage };
  return typeof mod.renderPage === 'function' ? mod.renderPage : null;
}

const ENTRY_SCRIPT = /<script type="module" crossorigin src="(\/assets\/[\w.-]+\.js)"><\/script>/;
const PRELOADS = /<link rel="modulepreload" crossorigin href="(\/assets\/[\w.-]+\.js)">\s*/g;

/**
 * A rendered page is complete before any script runs, so the app's script starts once the page is on screen
 * with its main picture (client/public/boot.js): on a slow connection its bytes no longer compete with the
 * page's images. The boot script is inlined when the page shell has it (allowed by its hash in the CSP),
 * else it is the file /boot.js.
 */
function startAfterPaint(html: string, boot: string | null): string {
  const entry = ENTRY_SCRIPT.exec(html)?.[1];
  if (!entry) return html;
  const preloads = [...html.matchAll(PRELOADS)].map((m) => m[1] ?? '');
  const attributes = `data-entry="${entry}" data-preload="${preloads.join(' ')}"`;
  const script =
    boot === null
      ? `<script type="module" src="/boot.js" ${attributes}></script>`
      : `<script type="module" ${attributes}>${boot}</script>`;
  // A function as the replacement: the script's text is inserted as it is (no `$&` patterns).
  return html.replace(PRELOADS, '').replace(ENTRY_SCRIPT, () => script);
}

const NEEDS_SCRIPT_NOTICE = /<noscript>This store needs JavaScript[^<]*<\/noscript>/;

/** JSON inside a script element: `<` escaped so no text in it can close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * The page's HTML: the built index.html with the page's head (title, description, Open Graph, JSON-LD)
 * and, for rendered pages, the markup and the query answers it was made from. A render that fails logs and
 * falls back to the plain shell: the browser then renders as it would without the server's help.
 */
export async function storefrontHtml(opts: {
  template: string;
  pathname: string;
  search: string;
  head: PageHead | null;
  render: RenderPage | null;
  query: ServerQuery;
  log: FastifyBaseLogger;
  /** An address no route knows: the 404 page is rendered too, so it reads right without JavaScript. */
  notFound?: boolean;
  /** The boot script to inline into rendered pages (PageShell.boot); without it they load /boot.js. */
  boot?: string | null;
  /** Render it though it is not one of the RENDERED pages: the order page, answered by its own route. */
  rendered?: boolean;
}): Promise<string> {
  let html = opts.head ? injectHead(opts.template, opts.head) : opts.template;
  if (!opts.render || !(opts.notFound || opts.rendered || isRenderedPage(opts.pathname))) return html;
  try {
    const page = await opts.render(opts.pathname, opts.search, opts.query);
    html = startAfterPaint(html, opts.boot ?? null)
      // The page is all there: the "needs JavaScript" notice (for the bare shell) would be untrue.
      .replace(NEEDS_SCRIPT_NOTICE, '')
      // A function, not a string: a product's text with $& or $' in it must be inserted as written.
      .replace(
        '<div id="root"></div>',
        () =>
          `<div id="root">${page.html}</div><script type="application/json" id="${QUERY_STATE_ID}">${scriptJson(page.state)}</script>`,
      );
  } catch (err) {
    opts.log.warn({ err, path: opts.pathname }, 'server render failed; sending the plain page');
  }
  return html;
}
