import { keepPreviousData } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { trpc } from '../trpc';
import { cartCode, codeForRequest, useCartCode } from './cart-code';
import { linesForQuote, useCartLines } from './cart-store';

/**
 * The cart priced by the server (never by the browser), refreshed whenever the cart changes, with the
 * discount code kept with it. A code the server does not know, or refused for too many wrong codes, is
 * dropped at once (its message kept in `codeError`): sent again with every later quote it would count again.
 */
export function useCartQuote() {
  const lines = useCartLines();
  const code = useCartCode();
  const [codeError, setCodeError] = useState<string | null>(null);
  const input = { lines: linesForQuote(lines), ...codeForRequest(code) };
  const quote = trpc.checkout.quote.useQuery(input, {
    enabled: lines.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    retry: (count, error) => error.data?.code !== 'TOO_MANY_REQUESTS' && count < 2,
  });
  const refusal = quote.data?.codeRefusal ?? null;
  const limited = quote.error?.data?.code === 'TOO_MANY_REQUESTS' && code.code !== null;
  useEffect(() => {
    if (!code.code || quote.isPlaceholderData) return;
    if (refusal?.reason === 'not_found') {
      setCodeError(refusal.message);
      cartCode.remove();
    } else if (limited && quote.error) {
      setCodeError(quote.error.message);
      cartCode.remove();
    }
  }, [code.code, quote.isPlaceholderData, refusal, limited, quote.error]);
  return { lines, quote, code, codeError, setCodeError };
}
