import type { Migration } from 'kysely';
import * as catalogue from './2026-11-22T0001-catalogue.js';
import * as admins from './2026-11-22T0002-admins.js';
import * as catalogueSearch from './2026-11-22T0003-catalogue-search.js';
import * as orders from './2026-11-22T0004-orders.js';
import * as adminProducts from './2026-11-22T0005-admin-products.js';
import * as logsAndVitals from './2026-11-22T0006-logs-and-vitals.js';
import * as catalogVersions from './2026-11-22T0007-catalog-versions.js';
import * as storefrontRevision from './2026-11-22T0008-storefront-revision.js';
import * as catalogueChanges from './2026-11-22T0009-catalogue-changes.js';
import * as reindexOnRealChanges from './2026-11-22T0010-reindex-on-real-changes.js';
import * as searchFold from './2026-11-22T0011-search-fold.js';
import * as uniqueSku from './2026-11-22T0012-unique-sku.js';
import * as adminSessions from './2026-11-22T0013-admin-sessions.js';
import * as storefrontRevisionKey from './2026-11-25T0014-storefront-revision-key.js';
import * as jobLeases from './2026-11-25T0015-job-leases.js';
import * as foldFinalSigma from './2026-11-25T0016-fold-final-sigma.js';
import * as rateCounters from './2026-11-25T0017-rate-counters.js';
import * as emailOutbox from './2026-11-25T0018-email-outbox.js';
import * as afterPayment from './2026-11-25T0019-after-payment.js';
import * as sizeStock from './2026-11-25T0020-size-stock.js';
import * as soldOutIndex from './2026-11-25T0021-sold-out-index.js';
import * as adminRoles from './2026-11-26T0022-admin-roles.js';
import * as adminAudit from './2026-11-26T0023-admin-audit.js';
import * as twoFactor from './2026-11-26T0024-two-factor.js';
import * as stockAlertEmails from './2026-11-27T0025-stock-alert-emails.js';
import * as decimalPageOrder from './2026-11-28T0026-decimal-page-order.js';
import * as colourVariants from './2026-11-28T0027-colour-variants.js';
import * as discounts from './2026-11-28T0028-discounts.js';
import * as discountsRevision from './2026-11-28T0029-discounts-revision.js';
import * as paymentMethods from './2026-11-28T0030-payment-methods.js';
import * as paymentStepEmails from './2026-11-28T0031-payment-step-emails.js';
import * as returns from './2026-11-28T0032-returns.js';
import * as returnDifferences from './2026-11-29T0033-return-differences.js';
import * as orderLineFit from './2026-11-29T0034-order-line-fit.js';
import * as dashboardIndexes from './2026-11-29T0035-dashboard-indexes.js';
import * as dashboardSummary from './2026-11-29T0036-dashboard-summary.js';
import * as healthIndexes from './2026-11-29T0037-health-indexes.js';

/**
 * Every migration, listed by hand so that the bundled server carries them (no directory scan at run time).
 * Names sort in the order they run.
 */
export const migrations: Record<string, Migration> = {
  '2026-11-22T0001-catalogue': catalogue,
  '2026-11-22T0002-admins': admins,
  '2026-11-22T0003-catalogue-search': catalogueSearch,
  '2026-11-22T0004-orders': orders,
  '2026-11-22T0005-admin-products': adminProducts,
  '2026-11-22T0006-logs-and-vitals': logsAndVitals,
  '2026-11-22T0007-catalog-versions': catalogVersions,
  '2026-11-22T0008-storefront-revision': storefrontRevision,
  '2026-11-22T0009-catalogue-changes': catalogueChanges,
  '2026-11-22T0010-reindex-on-real-changes': reindexOnRealChanges,
  '2026-11-22T0011-search-fold': searchFold,
  '2026-11-22T0012-unique-sku': uniqueSku,
  '2026-11-22T0013-admin-sessions': adminSessions,
  '2026-11-25T0014-storefront-revision-key': storefrontRevisionKey,
  '2026-11-25T0015-job-leases': jobLeases,
  '2026-11-25T0016-fold-final-sigma': foldFinalSigma,
  '2026-11-25T0017-rate-counters': rateCounters,
  '2026-11-25T0018-email-outbox': emailOutbox,
  '2026-11-25T0019-after-payment': afterPayment,
  '2026-11-25T0020-size-stock': sizeStock,
  '2026-11-25T0021-sold-out-index': soldOutIndex,
  '2026-11-26T0022-admin-roles': adminRoles,
  '2026-11-26T0023-admin-audit': adminAudit,
  '2026-11-26T0024-two-factor': twoFactor,
  '2026-11-27T0025-stock-alert-emails': stockAlertEmails,
  '2026-11-28T0026-decimal-page-order': decimalPageOrder,
  '2026-11-28T0027-colour-variants': colourVariants,
  '2026-11-28T0028-discounts': discounts,
  '2026-11-28T0029-discounts-revision': discountsRevision,
  '2026-11-28T0030-payment-methods': paymentMethods,
  '2026-11-28T0031-payment-step-emails': paymentStepEmails,
  '2026-11-28T0032-returns': returns,
  '2026-11-29T0033-return-differences': returnDifferences,
  '2026-11-29T0034-order-line-fit': orderLineFit,
  '2026-11-29T0035-dashboard-indexes': dashboardIndexes,
  '2026-11-29T0036-dashboard-summary': dashboardSummary,
  '2026-11-29T0037-health-indexes': healthIndexes,
};
