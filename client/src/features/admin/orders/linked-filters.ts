import { ORDER_STATUSES, type OrderStatusName } from '@shared/orders';
import {
  PAYMENT_METHODS,
  PAYMENT_STEPS,
  type PaymentMethodName,
  type PaymentStep,
} from '@shared/payment-methods';

const oneOf = <T extends string>(list: readonly T[], value: string | null): T | '' =>
  list.find((item) => item === value) ?? '';

/**
 * The list filters an address names (?tab=orders&step=awaiting_confirmation, the Overview's counts): only
 * known values; anything else is "any", so a hand-edited address cannot put a value the selects lack.
 */
export function linkedOrderFilters(search: string): {
  status: OrderStatusName | '';
  method: PaymentMethodName | '';
  step: PaymentStep | '';
} {
  const query = new URLSearchParams(search);
  return {
    status: oneOf(ORDER_STATUSES, query.get('status')),
    method: oneOf(PAYMENT_METHODS, query.get('method')),
    step: oneOf(PAYMENT_STEPS, query.get('step')),
  };
}
