import type { Migration } from 'kysely';
import * as baseline from './2026-11-25T0001-baseline.js';
import * as jobLeases from './2026-11-25T0002-job-leases.js';
import * as searchTokens from './2026-11-25T0003-search-tokens.js';
import * as rateCounters from './2026-11-25T0004-rate-counters.js';
import * as sizeDetailAsWritten from './2026-11-25T0005-size-detail-as-written.js';
import * as emailOutbox from './2026-11-25T0006-email-outbox.js';
import * as afterPayment from './2026-11-25T0007-after-payment.js';
import * as sizeStock from './2026-11-25T0008-size-stock.js';
import * as soldOutIndex from './2026-11-25T0009-sold-out-index.js';
import * as twoLetterWords from './2026-11-25T0010-two-letter-words.js';
import * as adminRoles from './2026-11-26T0011-admin-roles.js';
import * as adminAudit from './2026-11-26T0012-admin-audit.js';
import * as twoFactor from './2026-11-26T0013-two-factor.js';
import * as stockAlertEmails from './2026-11-27T0014-stock-alert-emails.js';
import * as decimalPageOrder from './2026-11-28T0015-decimal-page-order.js';
import * as colourVariants from './2026-11-28T0016-colour-variants.js';
import * as discounts from './2026-11-28T0017-discounts.js';
import * as discountsRevision from './2026-11-28T0018-discounts-revision.js';
import * as paymentMethods from './2026-11-28T0019-payment-methods.js';
import * as paymentStepEmails from './2026-11-28T0020-payment-step-emails.js';
import * as returns from './2026-11-28T0021-returns.js';
import * as returnDifferences from './2026-11-29T0022-return-differences.js';
import * as orderLineFit from './2026-11-29T0023-order-line-fit.js';
import * as dashboardIndexes from './2026-11-29T0024-dashboard-indexes.js';
import * as dashboardSummary from './2026-11-29T0025-dashboard-summary.js';
import * as healthIndexes from './2026-11-29T0026-health-indexes.js';

/** Every PostgreSQL migration, listed by hand so that the bundled server carries them. */
export const postgresMigrations: Record<string, Migration> = {
  '2026-11-25T0001-baseline': baseline,
  '2026-11-25T0002-job-leases': jobLeases,
  '2026-11-25T0003-search-tokens': searchTokens,
  '2026-11-25T0004-rate-counters': rateCounters,
  '2026-11-25T0005-size-detail-as-written': sizeDetailAsWritten,
  '2026-11-25T0006-email-outbox': emailOutbox,
  '2026-11-25T0007-after-payment': afterPayment,
  '2026-11-25T0008-size-stock': sizeStock,
  '2026-11-25T0009-sold-out-index': soldOutIndex,
  '2026-11-25T0010-two-letter-words': twoLetterWords,
  '2026-11-26T0011-admin-roles': adminRoles,
  '2026-11-26T0012-admin-audit': adminAudit,
  '2026-11-26T0013-two-factor': twoFactor,
  '2026-11-27T0014-stock-alert-emails': stockAlertEmails,
  '2026-11-28T0015-decimal-page-order': decimalPageOrder,
  '2026-11-28T0016-colour-variants': colourVariants,
  '2026-11-28T0017-discounts': discounts,
  '2026-11-28T0018-discounts-revision': discountsRevision,
  '2026-11-28T0019-payment-methods': paymentMethods,
  '2026-11-28T0020-payment-step-emails': paymentStepEmails,
  '2026-11-28T0021-returns': returns,
  '2026-11-29T0022-return-differences': returnDifferences,
  '2026-11-29T0023-order-line-fit': orderLineFit,
  '2026-11-29T0024-dashboard-indexes': dashboardIndexes,
  '2026-11-29T0025-dashboard-summary': dashboardSummary,
  '2026-11-29T0026-health-indexes': healthIndexes,
};
