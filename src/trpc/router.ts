import { router } from './init.js';
import { accountRouter } from './routers/account.router.js';
import { adminAuditRouter } from './routers/admin-audit.router.js';
import { adminDashboardRouter } from './routers/admin-dashboard.router.js';
import { adminDiscountsRouter } from './routers/admin-discounts.router.js';
import { adminEmailsRouter } from './routers/admin-emails.router.js';
import { adminLogsRouter } from './routers/admin-logs.router.js';
import { adminOrdersRouter } from './routers/admin-orders.router.js';
import { adminProductsRouter } from './routers/admin-products.router.js';
import { adminReturnsRouter } from './routers/admin-returns.router.js';
import { adminSettingsRouter } from './routers/admin-settings.router.js';
import { adminTeamRouter } from './routers/admin-team.router.js';
import { authRouter } from './routers/auth.router.js';
import { adminCatalogRouter } from './routers/catalog-versions.router.js';
import { catalogueRouter } from './routers/catalogue.router.js';
import { checkoutRouter } from './routers/checkout.router.js';
import { adminMediaRouter } from './routers/media.router.js';
import { orderPageRouter } from './routers/order-page.router.js';
import { siteRouter } from './routers/site.router.js';
import { adminPerformanceRouter, telemetryRouter } from './routers/telemetry.router.js';

export const appRouter = router({
  catalogue: catalogueRouter,
  site: siteRouter,
  auth: authRouter,
  checkout: checkoutRouter,
  orderPage: orderPageRouter,
  telemetry: telemetryRouter,
  // Every admin procedure lives under `admin.*` so the boundary shows in every call's path.
  admin: router({
    account: accountRouter,
    audit: adminAuditRouter,
    catalog: adminCatalogRouter,
    dashboard: adminDashboardRouter,
    discounts: adminDiscountsRouter,
    emails: adminEmailsRouter,
    logs: adminLogsRouter,
    media: adminMediaRouter,
    orders: adminOrdersRouter,
    performance: adminPerformanceRouter,
    products: adminProductsRouter,
    returns: adminReturnsRouter,
    settings: adminSettingsRouter,
    team: adminTeamRouter,
  }),
});

export type AppRouter = typeof appRouter;
