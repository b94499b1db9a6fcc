import type { DehydratedState } from '@tanstack/react-query';

/**
 * What the server and the client's server bundle agree on when a storefront page is rendered on the server.
 * Both sides import this file; the server never imports the client's code.
 */

/** The element that carries the server's query answers into the page, read by the browser on hydration. */
export const QUERY_STATE_ID = 'query-state';

/** Runs one public query on the server; undefined when the server will not answer it for the page. */
export type ServerQuery = (path: string, input: unknown) => Promise<unknown>;

export type RenderedPage = { html: string; state: DehydratedState };

/** The client's server bundle exports a function of this type as `renderPage`. */
export type RenderPage = (pathname: string, search: string, query: ServerQuery) => Promise<RenderedPage>;

/**
 * The query parameters the listing reads and writes, by field. A rendered page is cached by these alone, so
 * tracking parameters (utm_source, fbclid) do not multiply the cache.
 */
export const LISTING_PARAM = {
  q: 'q',
  manufacturers: 'brand',
  sizes: 'size',
  colors: 'color',
  tags: 'tag',
  priceMin: 'min',
  priceMax: 'max',
  inStock: 'instock',
  onSale: 'sale',
  sort: 'sort',
  page: 'page',
} as const;

export const LISTING_PARAMS: ReadonlySet<string> = new Set(Object.values(LISTING_PARAM));

/**
 * The one parameter a product page reads: the colour chosen (`/product/{id}?colour=teal`). Its page is
 * rendered, titled and cached by it; every other parameter of a product's address leaves the page as it is.
 */
export const COLOUR_PAGE_PARAM = 'colour';
