import { type FormEvent, useId, useMemo, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { countryName } from '../../lib/country-name';
import { paths } from '../../lib/paths';
import { toast } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { useFocusFirstInvalid } from '../../lib/use-focus-first-invalid';
import { usePageTitle } from '../../lib/use-page-title';
import { useZodForm } from '../../lib/use-zod-form';
import { AddressLines } from './address-lines';
import { DemoDifferencePayment } from './demo-difference-payment';
import { DemoOrderSummary } from './demo-order-summary';
import { type DemoPaymentValues, demoPaymentCheck } from './demo-payment-check';

type Values = DemoPaymentValues;

const EMPTY: Values = {
  email: '',
  name: '',
  address: { line1: '', line2: '', city: '', postalCode: '', country: '' },
};

/**
 * Demo payment mode: stands in for Stripe's page. It asks what Stripe would (who pays, where the parcel goes)
 * and completes the order when sent. No card, no money.
 */
export function TestPaymentPage() {
  usePageTitle('Test Payment Processing');
  const search = new URLSearchParams(useSearch());
  const sessionId = search.get('session_id') ?? '';
  // An exchange's price difference (decision 0039) has its own demo sessions: no shopper details to ask.
  const difference = sessionId.startsWith('demo_rd_');

  return (
    <div className="mx-auto max-w-xl px-4 py-16">
      <h1 className="text-center font-serif text-3xl">Test Payment Processing</h1>
      <p className="mt-4 rounded-xl bg-amber-50 p-4 text-center text-sm text-amber-900">
        <strong>Demo payment — no card is charged and no money moves.</strong> This store is in demo payment
        mode:{' '}
        {difference
          ? 'paying here completes a test payment.'
          : 'the details below only complete a test order.'}
      </p>
      {difference ? (
        <DemoDifferencePayment sessionId={sessionId} returnTo={search.get('return_to')} />
      ) : sessionId ? (
        <>
          <DemoOrderSummary sessionId={sessionId} />
          <DemoPaymentForm sessionId={sessionId} />
        </>
      ) : (
        <p role="alert" className="mt-6 text-center text-red-800">
          This payment link is incomplete.
        </p>
      )}
    </div>
  );
}

function DemoPaymentForm({ sessionId }: { sessionId: string }) {
  const [, navigate] = useLocation();
  const formRef = useRef<HTMLFormElement>(null);
  const countryId = useId();
  const form = useZodForm(demoPaymentCheck, EMPTY);
  const { values, error } = form;
  const [failure, setFailure] = useState<string | null>(null);
  const complete = trpc.checkout.completeTestPayment.useMutation();
  const shipping = trpc.checkout.shippingCountries.useQuery(undefined, { staleTime: 10 * 60 * 1000 });

  const countries = useMemo(
    () =>
      (shipping.data ?? [])
        .map((code) => ({ code, name: countryName(code) }))
        .sort((a, b) => a.name.localeCompare(b.name, 'en')),
    [shipping.data],
  );

  const setAddress = (key: keyof Values['address'], value: string) =>
    form.setValues((v) => ({ ...v, address: { ...v.address, [key]: value } }));

  const focusFirstError = useFocusFirstInvalid(formRef);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const result = await form.save((v) => complete.mutateAsync({ sessionId, ...v }));
    if (result === 'saved') {
      toast.success('Test payment completed successfully!');
      navigate(paths.checkoutSuccess(sessionId), { replace: true });
      return;
    }
    if (result !== 'invalid') {
      // Field errors are shown beside their fields; the address's own come as one list from the server
      // (its flattened error keeps only the top-level key), so they are said here with the rest.
      setFailure(
        result.message === 'Invalid input' ? 'Please correct the highlighted fields.' : result.message,
      );
    }
    focusFirstError();
  };

  const addressError = form.errors.address;

  return (
    <form
      ref={formRef}
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label="Demo payment"
      className="mt-8 space-y-5"
    >
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        value={values.email}
        onChange={(e) => form.set('email', e.target.value)}
        error={error('email')}
        hint="Where the order confirmation goes."
        required
      />
      <TextField
        label="Full name"
        autoComplete="name"
        value={values.name}
        onChange={(e) => form.set('name', e.target.value)}
        error={error('name')}
        required
      />
      <fieldset className="space-y-4">
        <legend className="font-serif text-lg">Shipping address</legend>
        <AddressLines values={values.address} onChange={setAddress} error={error} postalCodeRequired />
        <div>
          <label htmlFor={countryId} className="block text-sm font-medium text-ink">
            Country
          </label>
          <select
            id={countryId}
            autoComplete="country"
            value={values.address.country}
            onChange={(e) => setAddress('country', e.target.value)}
            disabled={!shipping.data}
            required
            aria-invalid={error('address.country') ? true : undefined}
            aria-describedby={error('address.country') ? `${countryId}-error` : undefined}
            className={`mt-1 block w-full rounded-lg border bg-white px-3 py-2 text-sm ${error('address.country') ? 'border-red-700' : 'border-stone-line'}`}
          >
            {/* Nothing is chosen for the shopper: an empty first choice, so leaving it is caught as a missing
                country (not a parcel sent to whichever country sorts first). */}
            <option value="">{shipping.isPending ? 'Loading…' : 'Choose a country'}</option>
            {countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
          {error('address.country') ? (
            <p id={`${countryId}-error`} className="mt-1 text-xs text-red-700">
              {error('address.country')}
            </p>
          ) : null}
        </div>
      </fieldset>
      {shipping.isError ? (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          Could not load the countries this store ships to: {shipping.error.message}
        </p>
      ) : shipping.data?.length === 0 ? (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          This store does not ship anywhere yet, so the order cannot be completed.
        </p>
      ) : null}
      {failure || addressError ? (
        <div role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          {failure ? <p>{failure}</p> : null}
          {addressError ? <p>{addressError}</p> : null}
        </div>
      ) : form.hasErrors ? (
        <p role="alert" className="text-sm text-red-700">
          Please correct the highlighted fields.
        </p>
      ) : null}
      <Button type="submit" className="w-full" disabled={complete.isPending || !shipping.data?.length}>
        {complete.isPending ? 'Completing…' : 'Complete test payment'}
      </Button>
    </form>
  );
}
