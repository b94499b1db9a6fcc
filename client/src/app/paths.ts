/** Every URL the client builds, in one place. */
export const paths = {
  home: () => '/',
  product: (id: string) => `/product/${encodeURIComponent(id)}`,
  productBySlug: (slug: string) => `/products/${encodeURIComponent(slug)}`,
  checkout: () => '/checkout',
  checkoutSuccess: (sessionId: string) => `/checkout/success?session_id=${encodeURIComponent(sessionId)}`,
  about: () => '/about',
  notFound: () => '/not-found',
  admin: () => '/admin',
  adminDashboard: () => '/admin/dashboard',
  adminProfile: () => '/admin/profile',
  adminAbout: () => '/admin/about',
  adminLogs: () => '/admin/logs',
} as const;
