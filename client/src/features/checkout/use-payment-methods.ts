import type { OfferedPaymentMethod, PaymentMethodName } from '@shared/payment-methods';
import { useMemo, useState } from 'react';
import type { linesForOrder } from '../../lib/cart/cart-store';
import { countryName } from '../../lib/country-name';
import { trpc } from '../../lib/trpc';

/**
 * The cart as checkout sends it (cartInput): lines, and the code only when it applies. Only placing the
 * order sends the lines' measurements (linesForOrder); asking what it costs or how it may be paid does not.
 */
export type CartRequest = { lines: ReturnType<typeof linesForOrder>; code?: string; email?: string };

/** The country the browser's language names ('en-PK' → 'PK'), when the store ships there. */
function browserCountry(shipsTo: readonly string[]): string | null {
  if (typeof navigator === 'undefined') return null;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const region = /-([A-Za-z]{2})(?:-|$)/.exec(tag)?.[1]?.toUpperCase();
    if (region && shipsTo.includes(region)) return region;
  }
  return null;
}

/** The country a cached answer was asked for (tRPC's query key: [path, { input, type }]). */
function countryOfKey(key: readonly unknown[] | undefined): unknown {
  const second = key?.[1] as { input?: { country?: unknown } } | undefined;
  return second?.input?.country;
}

/**
 * The payment methods checkout offers for the shipping country the shopper chooses. Before they choose,
 * one country stands in to learn whether the store offers anything but the card at all: the server lists
 * every method the owner turned on (refused ones with their reason), so an answer of the card alone means
 * a card-only store, whose checkout then looks and works as it always did (no country to choose).
 */
export function usePaymentMethods(cart: CartRequest | null) {
  const shipping = trpc.checkout.shippingCountries.useQuery(undefined, { staleTime: 10 * 60 * 1000 });
  const [country, setCountry] = useState('');
  const shipsTo = shipping.data;
  const asked = country || (shipsTo ? (browserCountry(shipsTo) ?? shipsTo[0] ?? '') : '');
  const query = trpc.checkout.paymentMethods.useQuery(
    { ...(cart ?? { lines: [] }), country: asked },
    {
      enabled: cart !== null && cart.lines.length > 0 && asked !== '',
      // While a changed cart is priced the methods stay on screen; a changed country's are not the last one's.
      placeholderData: (previous, previousQuery) =>
        countryOfKey(previousQuery?.queryKey) === asked ? previous : undefined,
      staleTime: 30_000,
      retry: (count, error) => error.data?.code !== 'TOO_MANY_REQUESTS' && count < 1,
    },
  );
  const listed: OfferedPaymentMethod[] = query.data?.methods ?? [];
  // What the store offers, kept from the last answer while another country's is asked (no answer then), so
  // the choice does not vanish and come back as the shopper changes country.
  const answer = query.data
    ? { choice: listed.some((m) => m.id !== 'card'), card: listed.some((m) => m.id === 'card') }
    : null;
  const [known, setKnown] = useState(answer);
  if (answer && (answer.choice !== known?.choice || answer.card !== known?.card)) setKnown(answer);
  const store = answer ?? known;
  const countries = useMemo(
    () =>
      (shipsTo ?? [])
        .map((code) => ({ code, name: countryName(code) }))
        .sort((a, b) => a.name.localeCompare(b.name, 'en')),
    [shipsTo],
  );
  return {
    /** False until the store is known to offer more than the card (and on any failure to learn it). */
    offersChoice: store?.choice ?? false,
    /** The owner offers the card somewhere: before a country is chosen, it pays as it always did. */
    cardOffered: store?.card ?? false,
    shipping,
    countries,
    country,
    setCountry,
    /** The methods for the chosen country; none before one is chosen. */
    methods: country !== '' ? listed : [],
    query,
    /** True while the methods shown are not yet those of the cart and country as they are now. */
    stale: query.isFetching || query.isPlaceholderData,
  };
}

/** The method the shopper chose if it is listed (even refused: its reason is then shown), else the first offered. */
export function chosenMethod(
  methods: readonly OfferedPaymentMethod[],
  chosen: PaymentMethodName | null,
): OfferedPaymentMethod | null {
  return methods.find((m) => m.id === chosen) ?? methods.find((m) => m.available) ?? null;
}
