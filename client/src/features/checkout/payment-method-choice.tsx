import { formatMoney } from '@shared/money';
import type { OfferedPaymentMethod, PaymentMethodName } from '@shared/payment-methods';
import { useId } from 'react';
import type { usePaymentMethods } from './use-payment-methods';

type Offer = ReturnType<typeof usePaymentMethods>;

/**
 * "How would you like to pay?": the shipping country first (which methods the store offers depends on it),
 * then one radio per method the owner turned on. A refused method stays in the list, disabled, with the
 * reason the server gave; the fee and the total with the chosen method are shown before anything is placed.
 * Native radios sharing a name: arrow keys move between the offered ones, as in any form.
 */
export function PaymentMethodChoice({
  offer,
  selected,
  onChoose,
  cartTotalMinor,
}: {
  offer: Offer;
  selected: OfferedPaymentMethod | null;
  onChoose: (id: PaymentMethodName) => void;
  /** The cart's total as priced above (lines less discounts), to show what the method adds to it. */
  cartTotalMinor: number | null;
}) {
  const countryId = useId();
  const groupName = useId();
  const { shipping, countries, country, methods, query, stale } = offer;
  return (
    <section aria-labelledby={`${groupName}-heading`} className="mt-8 border-t border-stone-line pt-6">
      <h2 id={`${groupName}-heading`} className="font-serif text-2xl">
        How would you like to pay?
      </h2>
      <div className="mt-4">
        <label htmlFor={countryId} className="block text-sm font-medium text-ink">
          Deliver to
        </label>
        <select
          id={countryId}
          autoComplete="country"
          value={country}
          onChange={(e) => offer.setCountry(e.target.value)}
          disabled={!shipping.data}
          aria-describedby={`${countryId}-hint`}
          className="mt-1 block w-full rounded-lg border border-stone-line bg-white px-3 py-2 text-sm sm:w-80"
        >
          {/* Nothing is chosen for the shopper: the country decides how they may pay and where the parcel goes. */}
          <option value="">{shipping.isPending ? 'Loading…' : 'Choose a country'}</option>
          {countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </select>
        <p id={`${countryId}-hint`} className="mt-1 text-xs text-muted">
          How you can pay depends on where we deliver.
        </p>
      </div>
      {country === '' ? null : query.isError && !query.data ? (
        <p role="alert" className="mt-4 rounded-xl bg-red-50 p-4 text-sm text-red-800">
          Could not load the ways to pay: {query.error.message}
        </p>
      ) : methods.length === 0 ? (
        <p className="mt-4 text-sm text-muted" aria-busy="true">
          Loading the ways to pay…
        </p>
      ) : (
        <fieldset className="mt-5" aria-busy={stale || undefined}>
          <legend className="text-sm font-medium text-ink">Payment method</legend>
          <div className="mt-2 space-y-2">
            {methods.map((m) => (
              <MethodOption
                key={m.id}
                method={m}
                name={groupName}
                checked={selected?.id === m.id}
                onChoose={onChoose}
              />
            ))}
          </div>
        </fieldset>
      )}
      {selected && country !== '' ? (
        <MethodTotal method={selected} cartTotalMinor={cartTotalMinor} stale={stale} />
      ) : null}
    </section>
  );
}

function MethodOption({
  method,
  name,
  checked,
  onChoose,
}: {
  method: OfferedPaymentMethod;
  name: string;
  checked: boolean;
  onChoose: (id: PaymentMethodName) => void;
}) {
  const id = useId();
  return (
    <div
      className={`flex items-start gap-3 rounded-xl border p-3 ${checked ? 'border-maroon bg-white' : 'border-stone-line'} ${method.available ? '' : 'text-muted'}`}
      data-testid="payment-method"
    >
      <input
        id={id}
        type="radio"
        name={name}
        value={method.id}
        checked={checked}
        disabled={!method.available}
        onChange={() => onChoose(method.id)}
        aria-describedby={`${id}-detail`}
        className="mt-1 h-4 w-4 accent-maroon"
      />
      <div className="min-w-0 flex-1">
        <label htmlFor={id} className="font-medium">
          {method.label}
        </label>
        <p id={`${id}-detail`} className="text-sm">
          {method.available
            ? method.feeMinor > 0
              ? `Fee ${formatMoney(method.feeMinor, method.currency)}`
              : 'No fee'
            : (method.reason ?? 'Not available for this order.')}
        </p>
      </div>
    </div>
  );
}

/** What the chosen method adds and the total with it; for the card, what the payment page adds is said there. */
function MethodTotal({
  method,
  cartTotalMinor,
  stale,
}: {
  method: OfferedPaymentMethod;
  cartTotalMinor: number | null;
  stale: boolean;
}) {
  if (method.id === 'card' || !method.available) return null;
  const shippingMinor = cartTotalMinor === null ? 0 : method.totalMinor - method.feeMinor - cartTotalMinor;
  return (
    <dl
      className={`mt-4 space-y-1 text-sm ${stale ? 'opacity-60' : ''}`}
      aria-label={`Total with ${method.label.toLowerCase()}`}
      aria-busy={stale || undefined}
    >
      {shippingMinor > 0 ? (
        <div className="flex items-center justify-between">
          <dt>Shipping</dt>
          <dd data-testid="payment-shipping">{formatMoney(shippingMinor, method.currency)}</dd>
        </div>
      ) : null}
      {method.feeMinor > 0 ? (
        <div className="flex items-center justify-between">
          <dt>{method.label} fee</dt>
          <dd data-testid="payment-fee">{formatMoney(method.feeMinor, method.currency)}</dd>
        </div>
      ) : null}
      <div className="flex items-center justify-between text-lg font-semibold">
        <dt>Total to pay</dt>
        <dd data-testid="payment-total">{formatMoney(method.totalMinor, method.currency)}</dd>
      </div>
    </dl>
  );
}
