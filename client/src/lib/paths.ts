/** A filter's fields that are set, as URLSearchParams takes them ("undefined" is never a value). */
function definedOnly(filter: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(filter).filter((e): e is [string, string] => Boolean(e[1])));
}

/** Every URL the client builds, pages and API routes, in one place. */
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
  /** The log's own page; a level opens it filtered (the Overview's error count links there). */
  adminLogs: (level?: string) =>
    level ? `/admin/logs?${new URLSearchParams({ level }).toString()}` : '/admin/logs',
  /** Accepting an invitation to the admin: the token is the address's fragment (never sent to a server). */
  adminInvite: () => '/admin/invite',
  /** A printable packing slip for one order (admin-only page). */
  adminPackingSlip: (orderId: string) => `/admin/orders/${encodeURIComponent(orderId)}/packing-slip`,
  /** A printable packing slip for an exchange's replacement (admin-only page). */
  adminReturnPackingSlip: (returnId: string) => `/admin/returns/${encodeURIComponent(returnId)}/packing-slip`,
  /** The dashboard with the Returns tab open on one return (the order dialog links there). */
  adminReturn: (returnId: string) =>
    `/admin/dashboard?${new URLSearchParams({ tab: 'returns', return: returnId }).toString()}`,
  /** The dashboard with the Orders tab open on a filtered list (the Overview's counts link there). */
  adminOrders: (filter: { method?: string; step?: string }) =>
    `/admin/dashboard?${new URLSearchParams({ tab: 'orders', ...definedOnly(filter) }).toString()}`,
  /** The dashboard with the Returns tab open on the returns of one status. */
  adminReturns: (status: string) =>
    `/admin/dashboard?${new URLSearchParams({ tab: 'returns', status }).toString()}`,
  /** Paid orders of a range of days (by paid date, UTC) as a CSV download (admin-only). */
  adminOrdersExport: (range: { from: string; to: string }) =>
    `/api/admin/orders/export.csv?${new URLSearchParams({ from: range.from, to: range.to }).toString()}`,
  /** The filtered application log as JSON lines (admin-only download). */
  adminLogsExport: (filter: { level?: string; source?: string; q?: string }) => {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(filter)) if (value) query.set(key, value);
    const qs = query.toString();
    return `/api/admin/logs/export${qs ? `?${qs}` : ''}`;
  },
  /** Multipart: uploads files as media of a product (admin-only). */
  adminProductMediaUpload: (productId: string) =>
    `/api/admin/products/${encodeURIComponent(productId)}/media`,
  /** Multipart: a banner picture, re-encoded by the server, which answers its URL (admin-only). */
  adminBannerImageUpload: () => '/api/admin/settings/banner-image',
  /** Multipart: a catalogue YAML file to import (admin-only). */
  adminCatalogImport: () => '/api/admin/catalog/import',
  /** A catalogue version as a YAML download (admin-only). */
  adminCatalogDownload: (versionId: string) =>
    `/api/admin/catalog/versions/${encodeURIComponent(versionId)}/download`,
  /** Where new products' image folders start. */
  productImageFolderBase: () => '/media/images/product-catalog/',
  trpc: () => '/api/trpc',
  /** Web-vitals beacons from shoppers' browsers. */
  vitals: () => '/api/vitals',
  /** Called without the tRPC client, so a broken client can still report that it broke. */
  errorReport: () => '/api/trpc/telemetry.reportError',
} as const;
