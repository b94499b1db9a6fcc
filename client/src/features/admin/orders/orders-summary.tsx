import { formatMoney } from '@shared/money';
import type { OrdersSummary } from './use-orders';

const orders = (n: number) => `${n} ${n === 1 ? 'order' : 'orders'}`;

/**
 * The cash-on-delivery figures of the listed period (decision 0038): the return-to-origin rate, returned ÷
 * (returned + collected), and the cash still at the door, per currency (never summed across currencies).
 * The percentage is worked out from the two counts it is shown with, so the words always agree.
 */
export function OrdersSummaryLine({ summary }: { summary: OrdersSummary | undefined }) {
  if (!summary) return null;
  const { returned, collected, cashAwaiting } = summary;
  const finished = returned + collected;
  return (
    <dl
      className="mt-4 flex flex-wrap gap-x-8 gap-y-1 rounded-xl bg-sand/60 px-4 py-3 text-sm"
      aria-label="Cash on delivery figures"
      data-testid="orders-summary"
    >
      <div className="flex gap-1">
        <dt>Return to origin:</dt>
        <dd data-testid="orders-summary-rto">
          {summary.returnToOriginRate === null || finished === 0
            ? 'none delivered or returned yet'
            : `${Math.round((returned / finished) * 100)} % (${returned} of ${finished})`}
        </dd>
      </div>
      <div className="flex gap-1">
        <dt>Cash awaiting collection:</dt>
        <dd data-testid="orders-summary-cash">
          {cashAwaiting.length === 0
            ? 'none'
            : cashAwaiting
                .map(
                  (c) =>
                    `${formatMoney(c.amountMinor, c.currency, { decimals: 'always' })} (${orders(c.orders)})`,
                )
                .join(' · ')}
        </dd>
      </div>
    </dl>
  );
}
