/** Every URL the client builds, in one place. */
export const paths = {
  home: () => '/',
  product: (id: string) => `/product/${encodeURIComponent(id)}`,
  productBySlug: (slug: string) => `/products/${encodeURIComponent(slug)}`,
  checkout: () => '/checkout',
  checkoutSuccess: (sessionId: string) => `/checkout/success?session_id=${encodeURIComponent(sessionId)}`,
  about: () => '/about',
  accessibility: () => '/accessibility',
  notFound: () => '/not-found',
  admin: () => '/admin',
  adminDashboard: () => '/admin/dashboard',
  adminProfile: () => '/admin/profile',
  adminAbout: () => '/admin/about',
  adminLogs: () => '/admin/logs',
  /** The filtered application log as JSON lines (admin-only download). */
  adminLogsExport: (filter: { level?: string; source?: string; q?: string }) => {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(filter)) if (value) query.set(key, value);
    const qs = query.toString();
    return `/api/admin/logs/export${qs ? `?${qs}` : ''}`;
  },
} as const;
