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
  '/checkout',
  '/checkout/success',
  '/checkout/cancel',
  '/success',
  '/canceled',
  '/testpayment',
  '/admin',
  '/admin/dashboard',
  '/admin/profile',
  '/admin/about',
  '/admin/logs',
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

export type ClientRoute = (typeof clientRoutes)[number];
