import { minorToMajorString } from '@shared/money';
import { type PaymentMethodSettings, paymentMethodSettingsInput } from '@shared/payment-methods';
import { type FormEvent, useEffect, useRef } from 'react';
import type { z } from 'zod';
import { TextAreaField } from '../../../components/admin/text-area-field';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { useFocusFirstInvalid } from '../../../lib/use-focus-first-invalid';
import { type FormCheck, useZodForm } from '../../../lib/use-zod-form';
import { Checkbox, MethodCountries, MethodFieldset, WholeNumberField } from './payment-method-fields';
import { usePaymentMethodSettings, useSavePaymentMethods } from './use-payment-methods';

/** What the form edits: the stored settings, with the fee and the maximum as amounts in their currency. */
type Values = z.input<typeof paymentMethodSettingsInput>;

/** The stored settings as the form shows them: minor units back to "2.00", no maximum as an empty field. */
function formValues(s: PaymentMethodSettings): Values {
  const { feeMinor, maxOrderMinor, ...cod } = s.cashOnDelivery;
  return {
    ...s,
    cashOnDelivery: {
      ...cod,
      fee: minorToMajorString(feeMinor, cod.currency),
      maxOrder: maxOrderMinor === null ? '' : minorToMajorString(maxOrderMinor, cod.currency),
    },
  };
}

/** The whole-number fields and their ranges, as the shared schema bounds them. */
const WHOLE_NUMBERS: Record<string, readonly [number, number]> = {
  'cashOnDelivery.confirmHours': [1, 168],
  'bankTransfer.holdDays': [1, 30],
  'limits.unconfirmedPerPhone': [1, 50],
  'limits.unconfirmedPerEmail': [1, 50],
  'limits.unconfirmedPerAddress': [1, 50],
  'limits.returnsBeforeRefusal': [1, 20],
};

/**
 * The shared schema, with one plain message for a whole-number field that is empty or out of range: Zod's
 * own ("expected number, received NaN") is not for the owner.
 */
const paymentMethodsCheck: FormCheck<PaymentMethodSettings> = {
  safeParse(values) {
    const result = paymentMethodSettingsInput.safeParse(values);
    if (result.success) return result;
    const issues = result.error.issues.map((issue) => {
      const range = WHOLE_NUMBERS[issue.path.map(String).join('.')];
      return range
        ? { path: issue.path, message: `Enter a whole number from ${range[0]} to ${range[1]}` }
        : issue;
    });
    return { success: false, error: { issues } };
  },
};

/** Settings → Payment methods (decision 0038): card, cash on delivery and bank transfer, the owner's. */
export function PaymentMethodsPanel() {
  const settings = usePaymentMethodSettings();
  if (settings.isPending) return <div className="skeleton h-96 rounded" aria-hidden="true" />;
  if (settings.isError) return <p role="alert">{settings.error.message}</p>;
  return <PaymentMethodsForm initial={settings.data} />;
}

function PaymentMethodsForm({ initial }: { initial: PaymentMethodSettings }) {
  const form = useZodForm(paymentMethodsCheck, formValues(initial));
  const { values, set, error, setValues } = form;
  const save = useSavePaymentMethods();
  const ref = useRef<HTMLFormElement>(null);
  const focusFirstError = useFocusFirstInvalid(ref);
  // The saved settings come back normalised (codes upper-cased and sorted): the form shows them so.
  useEffect(() => setValues(formValues(initial)), [initial, setValues]);

  const card = values.card;
  const cod = values.cashOnDelivery;
  const bank = values.bankTransfer;
  const currency = cod.currency.trim().toUpperCase() || 'the currency';
  const patch = {
    card: (change: Partial<Values['card']>) => set('card', { ...card, ...change }),
    cod: (change: Partial<Values['cashOnDelivery']>) => set('cashOnDelivery', { ...cod, ...change }),
    bank: (change: Partial<Values['bankTransfer']>) => set('bankTransfer', { ...bank, ...change }),
    limits: (change: Partial<Values['limits']>) => set('limits', { ...values.limits, ...change }),
    emails: (change: Partial<Values['emails']>) => set('emails', { ...values.emails, ...change }),
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const result = await form.save((v) => save.mutateAsync(v));
    if (result !== 'saved') focusFirstError();
  };

  return (
    <form
      ref={ref}
      onSubmit={(e) => void submit(e)}
      noValidate
      className="max-w-3xl space-y-6"
      aria-label="Payment methods"
    >
      <p className="text-sm text-muted">
        Shoppers choose among the methods offered for the country they ship to. A method with no countries is
        offered for every country the store ships to.
      </p>
      <MethodFieldset
        legend="Card"
        switchLabel="Offer card payment (Stripe, or the demo payment page in demo mode)"
        enabled={card.enabled}
        onEnabled={(enabled) => patch.card({ enabled })}
      >
        <MethodCountries
          method="Card"
          values={card.countries}
          onChange={(countries) => patch.card({ countries })}
          error={error('card.countries')}
        />
      </MethodFieldset>

      <MethodFieldset
        legend="Cash on delivery"
        switchLabel="Offer cash on delivery"
        enabled={cod.enabled}
        onEnabled={(enabled) => patch.cod({ enabled })}
      >
        <MethodCountries
          method="Cash on delivery"
          values={cod.countries}
          onChange={(countries) => patch.cod({ countries })}
          error={error('cashOnDelivery.countries')}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Currency"
            hint="Three letters, such as PKR. The fee and the maximum are in it, and only carts in it can pay cash on delivery."
            value={cod.currency}
            maxLength={3}
            autoComplete="off"
            onChange={(e) => patch.cod({ currency: e.target.value })}
            error={error('cashOnDelivery.currency')}
          />
          <WholeNumberField
            label="Hours to confirm"
            hint="Unconfirmed this long after it is placed, the order expires and its stock goes back."
            min={1}
            max={168}
            value={cod.confirmHours}
            onChange={(confirmHours) => patch.cod({ confirmHours })}
            error={error('cashOnDelivery.confirmHours')}
          />
          <TextField
            label={`Fee (${currency})`}
            hint="Added to the order's total; 0 for none."
            inputMode="decimal"
            autoComplete="off"
            value={cod.fee}
            onChange={(e) => patch.cod({ fee: e.target.value })}
            error={error('cashOnDelivery.fee')}
          />
          <TextField
            label={`Maximum order total (${currency})`}
            hint="The fee included. Leave empty for no maximum."
            inputMode="decimal"
            autoComplete="off"
            value={cod.maxOrder}
            onChange={(e) => patch.cod({ maxOrder: e.target.value })}
            error={error('cashOnDelivery.maxOrder')}
          />
        </div>
      </MethodFieldset>

      <MethodFieldset
        legend="Bank transfer"
        switchLabel="Offer bank transfer"
        enabled={bank.enabled}
        onEnabled={(enabled) => patch.bank({ enabled })}
      >
        <MethodCountries
          method="Bank transfer"
          values={bank.countries}
          onChange={(countries) => patch.bank({ countries })}
          error={error('bankTransfer.countries')}
        />
        <TextAreaField
          label="Bank account details (shown to the shopper: bank, account name, IBAN…)"
          value={bank.accountDetails}
          onChange={(accountDetails) => patch.bank({ accountDetails })}
          error={error('bankTransfer.accountDetails')}
          rows={4}
        />
        <WholeNumberField
          label="Days to pay"
          hint="Not paid this many days after it is placed, the order expires and its stock goes back."
          min={1}
          max={30}
          value={bank.holdDays}
          onChange={(holdDays) => patch.bank({ holdDays })}
          error={error('bankTransfer.holdDays')}
        />
      </MethodFieldset>

      <fieldset className="space-y-3 rounded-xl border border-stone-line p-4">
        <legend className="px-1 text-sm font-medium">Cash on delivery limits</legend>
        <div className="grid gap-4 sm:grid-cols-3">
          <WholeNumberField
            label="Unconfirmed orders per phone"
            min={1}
            max={50}
            value={values.limits.unconfirmedPerPhone}
            onChange={(unconfirmedPerPhone) => patch.limits({ unconfirmedPerPhone })}
            error={error('limits.unconfirmedPerPhone')}
          />
          <WholeNumberField
            label="Unconfirmed orders per email"
            min={1}
            max={50}
            value={values.limits.unconfirmedPerEmail}
            onChange={(unconfirmedPerEmail) => patch.limits({ unconfirmedPerEmail })}
            error={error('limits.unconfirmedPerEmail')}
          />
          <WholeNumberField
            label="Unconfirmed orders per address"
            min={1}
            max={50}
            value={values.limits.unconfirmedPerAddress}
            onChange={(unconfirmedPerAddress) => patch.limits({ unconfirmedPerAddress })}
            error={error('limits.unconfirmedPerAddress')}
          />
        </div>
        <WholeNumberField
          label="Returns to origin before a phone is refused"
          hint="A phone whose last this-many cash-on-delivery orders came back is refused until you lift it (from one of its orders)."
          min={1}
          max={20}
          value={values.limits.returnsBeforeRefusal}
          onChange={(returnsBeforeRefusal) => patch.limits({ returnsBeforeRefusal })}
          error={error('limits.returnsBeforeRefusal')}
        />
      </fieldset>

      <fieldset className="space-y-2 rounded-xl border border-stone-line p-4">
        <legend className="px-1 text-sm font-medium">Email the shopper when</legend>
        <p className="text-xs text-muted">Placing an order and its expiry always send an email.</p>
        <Checkbox
          label="Their cash-on-delivery order is confirmed"
          checked={values.emails.confirmed}
          onChange={(confirmed) => patch.emails({ confirmed })}
        />
        <Checkbox
          label="The cash is collected"
          checked={values.emails.collected}
          onChange={(collected) => patch.emails({ collected })}
        />
        <Checkbox
          label="The parcel is returned to origin"
          checked={values.emails.returned}
          onChange={(returned) => patch.emails({ returned })}
        />
        <Checkbox
          label="Their bank transfer is received"
          checked={values.emails.transferReceived}
          onChange={(transferReceived) => patch.emails({ transferReceived })}
        />
      </fieldset>

      {form.hasErrors ? (
        <p role="alert" className="text-sm text-red-700">
          Please correct the highlighted fields.
        </p>
      ) : null}
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save payment methods'}
      </Button>
    </form>
  );
}
