import type { CustomerReturnView } from '@shared/returns';
import { useEffect } from 'react';
import { useSearch } from 'wouter';
import { trpc } from '../../../lib/trpc';

/** Back from paying a price difference (?difference=paid): whether a paid difference is still awaited. */
function useDifferencePaidReturn(returns: CustomerReturnView[]): 'none' | 'waiting' | 'confirmed' {
  const paid = new URLSearchParams(useSearch()).get('difference') === 'paid';
  if (!paid) return 'none';
  return returns.some((r) => r.difference?.status === 'due' && r.difference.canPay) ? 'waiting' : 'confirmed';
}

/**
 * While the payment is awaited the order is asked again every few seconds, a minute at most: the provider
 * tells the server, and the shopper may well be back before it has.
 */
function useReloadWhileWaiting(waiting: boolean, id: string, token: string) {
  const utils = trpc.useUtils();
  useEffect(() => {
    if (!waiting) return;
    let tries = 0;
    const timer = window.setInterval(() => {
      tries += 1;
      void utils.orderPage.view.invalidate({ id, token });
      if (tries >= 20) window.clearInterval(timer);
    }, 3000);
    return () => window.clearInterval(timer);
  }, [waiting, utils, id, token]);
}

/**
 * At the top of the order page, where the shopper lands from the payment page: thanks, and whether the
 * payment is recorded yet (the provider tells the server, sometimes a few seconds later).
 */
export function DifferencePaidNotice({
  returns,
  id,
  token,
}: {
  returns: CustomerReturnView[];
  id: string;
  token: string;
}) {
  const state = useDifferencePaidReturn(returns);
  useReloadWhileWaiting(state === 'waiting', id, token);
  if (state === 'none') return null;
  return (
    <p
      role="status"
      className="mt-6 rounded-xl bg-emerald-50 p-4 text-sm text-emerald-900 print:hidden"
      data-testid="difference-paid-notice"
    >
      {state === 'confirmed'
        ? 'Thank you: the price difference of your exchange is paid.'
        : 'Thank you: your payment of the price difference went through. This page shows it as paid once it is confirmed.'}
    </p>
  );
}
