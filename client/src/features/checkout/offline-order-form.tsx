import type { OfflineMethodName, PlacedOfflineOrder } from '@shared/payment-methods';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { countryName } from '../../lib/country-name';
import { trpc } from '../../lib/trpc';
import { useFocusFirstInvalid } from '../../lib/use-focus-first-invalid';
import { useZodForm } from '../../lib/use-zod-form';
import { AddressLines } from './address-lines';
import { type OfflineOrderValues, offlineOrderCheck, type PhoneRule } from './offline-order-check';
import type { CartRequest } from './use-payment-methods';

const EMPTY: OfflineOrderValues = {
  email: '',
  name: '',
  phone: '',
  address: { line1: '', line2: '', city: '', postalCode: '' },
};

type PhoneFormat = typeof import('./phone-format');

/**
 * The phone rules of the shipping country, from the chunk that holds them (loaded with this form only, so a
 * card checkout and the home page never fetch the phone metadata). Null until it arrives or if it fails:
 * the server checks the number anyway.
 */
function usePhoneFormat(country: string) {
  const [lib, setLib] = useState<PhoneFormat | null>(null);
  useEffect(() => {
    let live = true;
    import('./phone-format').then(
      (m) => live && setLib(m),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return useMemo(() => {
    const name = countryName(country);
    const format = lib?.phoneFormat(country) ?? null;
    const example = format?.example ?? null;
    const rule: PhoneRule = format
      ? {
          valid: format.valid,
          message: `Enter a phone number valid in ${name}${example ? `, like ${example}` : ''}`,
        }
      : null;
    const hint = example
      ? `A number in ${name}, like ${example}. The courier calls it before delivering.`
      : `A number in ${name}. The courier calls it before delivering.`;
    return { rule, hint };
  }, [lib, country]);
}

/**
 * Cash on delivery and bank transfer: no payment page collects who pays and where the parcel goes, so the
 * store asks here (the demo payment page's form, with a phone) and places the order itself; the shopper then
 * goes to their order page, which says what happens next.
 */
export function OfflineOrderForm({
  method,
  methodLabel,
  country,
  cart,
  blocked,
  onPlaced,
}: {
  method: OfflineMethodName;
  methodLabel: string;
  country: string;
  cart: CartRequest;
  /** The cart cannot be placed as it is (a problem line, prices being updated, the method refused). */
  blocked: boolean;
  onPlaced: (order: PlacedOfflineOrder) => void;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const phone = usePhoneFormat(country);
  const check = useMemo(() => offlineOrderCheck(phone.rule), [phone.rule]);
  const form = useZodForm(check, EMPTY, { serverField: 'customer' });
  const { values, error } = form;
  const [failure, setFailure] = useState<string | null>(null);
  const place = trpc.checkout.placeOrder.useMutation();
  const focusFirstError = useFocusFirstInvalid(formRef);

  const setAddress = (key: keyof OfflineOrderValues['address'], value: string) =>
    form.setValues((v) => ({ ...v, address: { ...v.address, [key]: value } }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (place.isPending) return;
    setFailure(null);
    const answer: { placed?: PlacedOfflineOrder } = {};
    const result = await form.save(async (v) => {
      answer.placed = await place.mutateAsync({
        ...cart,
        method,
        customer: {
          email: v.email,
          name: v.name,
          phone: v.phone,
          address: {
            line1: v.address.line1,
            ...(v.address.line2.trim() ? { line2: v.address.line2 } : {}),
            city: v.address.city,
            ...(v.address.postalCode.trim() ? { postalCode: v.address.postalCode } : {}),
            country,
          },
        },
      });
    });
    if (result === 'saved' && answer.placed) {
      onPlaced(answer.placed);
      return;
    }
    if (result !== 'invalid' && result !== 'saved') {
      const fields = Object.keys(result.fieldErrors).length > 0;
      if (!fields && /phone/i.test(result.message)) {
        // The server's word on the number (not valid for the country, refused after returns) is the
        // phone field's own error, where the shopper fixes it.
        form.setErrors({ phone: result.message });
      } else {
        setFailure(
          result.message === 'Invalid input' || fields
            ? 'Please correct the highlighted fields.'
            : result.message,
        );
      }
    }
    focusFirstError();
  };

  return (
    <form
      ref={formRef}
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label={`Your details for ${methodLabel.toLowerCase()}`}
      className="mt-8 space-y-5"
    >
      <h3 className="font-serif text-xl">Your details</h3>
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
      <TextField
        label="Phone number"
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        value={values.phone}
        onChange={(e) => form.set('phone', e.target.value)}
        error={error('phone')}
        hint={phone.hint}
        required
      />
      <fieldset className="space-y-4">
        <legend className="font-serif text-lg">Delivery address</legend>
        <AddressLines
          values={values.address}
          onChange={setAddress}
          error={error}
          postalCodeRequired={false}
        />
        <p className="text-sm">
          Country: <span className="font-medium">{countryName(country)}</span>{' '}
          <span className="text-muted">(chosen above)</span>
        </p>
      </fieldset>
      {failure || form.errors.address ? (
        <div role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          {failure ? <p>{failure}</p> : null}
          {form.errors.address ? <p>{form.errors.address}</p> : null}
        </div>
      ) : form.hasErrors ? (
        <p role="alert" className="text-sm text-red-700">
          Please correct the highlighted fields.
        </p>
      ) : null}
      <div className="flex justify-end">
        <Button type="submit" disabled={place.isPending || blocked}>
          {place.isPending ? 'Placing order…' : 'Place order'}
        </Button>
      </div>
    </form>
  );
}
