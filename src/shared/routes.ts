/**
 * Every page the client renders, shared with the server so that it answers client routes with the app
 * (status 200) and anything else with status 404. Patterns use wouter's syntax (":param"). The client maps
 * each one to a page with a Record over this list, so the two cannot drift apart.
 */
export const clientRoutes = [
  '/',
  '/product/:id',
  '/products/:slug',
  '/about',
  '/accessibility',
  '/checkout',
  '/checkout/success',
  '/checkout/cancel',
  '/success',
  '/canceled',
  '/testpayment',
  '/order/:id',
  '/order/:id/confirm',
  '/admin',
  '/admin/dashboard',
  '/admin/profile',
  '/admin/about',
  '/admin/logs',
  '/admin/invite',
  '/admin/orders/:id/packing-slip',
  '/admin/returns/:id/packing-slip',
] as const;

const matchers = clientRoutes.map((pattern) => {
  const source = pattern
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
});

/** True when a request path (without query) is one of the client's pages. */
export function isClientRoute(pathname: string): boolean {
  return matchers.some((re) => re.test(pathname));
}

/** The pattern ('/product/:id') a request path (without query) matches, or null for unknown paths. */
export function clientRoutePattern(pathname: string): ClientRoute | null {
  const index = matchers.findIndex((re) => re.test(pathname));
  return index === -1 ? null : (clientRoutes[index] ?? null);
}

export type ClientRoute = (typeof clientRoutes)[number];
