import { keepPreviousData } from '@tanstack/react-query';
import { trpc } from '../trpc';
import { linesForQuote, useCartLines } from './cart-store';

/** The cart priced by the server (never by the browser), refreshed whenever the cart changes. */
export function useCartQuote() {
  const lines = useCartLines();
  const input = { lines: linesForQuote(lines) };
  const quote = trpc.checkout.quote.useQuery(input, {
    enabled: lines.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  return { lines, quote };
}
