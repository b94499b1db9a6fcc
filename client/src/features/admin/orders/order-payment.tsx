import { formatMoney } from '@shared/money';
import { PAYMENT_METHOD_LABEL } from '@shared/payment-methods';
import type { ReactNode } from 'react';
import type { OrderDetail } from './use-orders';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeStyle: 'short' });
const at = (iso: string) => dateTime.format(new Date(iso));
const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted">{term}</dt>
      <dd>{children}</dd>
    </>
  );
}

/**
 * How the order is paid and where that stands (decision 0038): the method and its step, the shopper's
 * phone, then what each step recorded (confirmation, cash collected, transfer, return to origin).
 */
export function OrderPayment({ order }: { order: OrderDetail }) {
  const { currency } = order;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1" data-testid="order-payment">
      <Row term="Method">
        <span data-testid="order-payment-method">{PAYMENT_METHOD_LABEL[order.paymentMethod]}</span>
      </Row>
      <Row term="Step">
        <span data-testid="order-payment-step">{order.stepLabel}</span>
      </Row>
      {order.phone ? (
        <Row term="Phone">
          <a className="text-maroon underline" href={`tel:${order.phone}`}>
            {order.phone}
          </a>
        </Row>
      ) : null}
      {order.confirmBy && !order.confirmedAt && order.step === 'awaiting_confirmation' ? (
        <Row term="Confirm by">{at(order.confirmBy)}</Row>
      ) : null}
      {order.confirmedAt ? (
        <Row term="Confirmed">
          {at(order.confirmedAt)}
          {order.confirmedBy ? ` by ${order.confirmedBy}` : ''}
        </Row>
      ) : null}
      {order.collectedAt ? (
        <Row term="Cash collected">
          {order.collectedMinor !== null
            ? formatMoney(order.collectedMinor, currency, { decimals: 'always' })
            : '—'}{' '}
          · {at(order.collectedAt)}
        </Row>
      ) : null}
      {order.transferReference ? (
        <Row term="Transfer">
          {order.transferReference}
          {order.transferReceivedOn ? ` · received ${day.format(new Date(order.transferReceivedOn))}` : ''}
        </Row>
      ) : null}
      {order.returnedAt ? (
        <Row term="Returned to origin">
          {at(order.returnedAt)}
          {order.returnedReason ? ` · ${order.returnedReason}` : ''} ·{' '}
          {order.returnedRestocked ? 'stock put back' : 'stock not put back'}
        </Row>
      ) : null}
    </dl>
  );
}
