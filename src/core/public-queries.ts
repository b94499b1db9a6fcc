/**
 * Public queries whose answer depends only on their input and on what the storefront revision covers
 * (products, media, settings, version line) or on the process's own configuration: never on a session, a
 * clock or chance. They may be cached (http/public-api-cache.ts) and answered by the server's page
 * render (http/storefront-page.ts). `site.randomQuote` and `auth.me` are deliberately absent.
 */
export const PUBLIC_QUERIES: ReadonlySet<string> = new Set([
  'catalogue.search',
  'catalogue.facets',
  'catalogue.byId',
  'catalogue.related',
  'catalogue.bySlug',
  'site.settings',
  'checkout.mode',
]);
