import { adminAuditRouter } from '../modules/audit/admin-audit.router.js';
import { accountRouter } from '../modules/auth/account.router.js';
import { adminTeamRouter } from '../modules/auth/admin-team.router.js';
import { authRouter } from '../modules/auth/auth.router.js';
import { adminCatalogRouter } from '../modules/catalog-versions/catalog-versions.router.js';
import { catalogueRouter } from '../modules/catalogue/catalogue.router.js';
import { checkoutRouter } from '../modules/checkout/checkout.router.js';
import { adminEmailsRouter } from '../modules/email/admin-emails.router.js';
import { adminLogsRouter } from '../modules/logs/admin-logs.router.js';
import { adminMediaRouter } from '../modules/media/media.router.js';
import { adminOrdersRouter } from '../modules/orders/admin-orders.router.js';
import { orderPageRouter } from '../modules/orders/order-page.router.js';
import { adminProductsRouter } from '../modules/products/admin-products.router.js';
import { adminSettingsRouter } from '../modules/settings/admin-settings.router.js';
import { siteRouter } from '../modules/settings/site.router.js';
import { adminPerformanceRouter, telemetryRouter } from '../modules/telemetry/telemetry.router.js';
import { router } from './init.js';

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
    emails: adminEmailsRouter,
    logs: adminLogsRouter,
    media: adminMediaRouter,
    orders: adminOrdersRouter,
    performance: adminPerformanceRouter,
    products: adminProductsRouter,
    settings: adminSettingsRouter,
    team: adminTeamRouter,
  }),
});

export type AppRouter = typeof appRouter;
