import { DISCOUNT_STACKING_RULE, discountInput, emptyDiscountForm } from '@shared/discount-input';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { ChipsInput } from '../../../components/admin/chips-input';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { TextField } from '../../../components/ui/text-field';
import { useZodForm } from '../../../lib/use-zod-form';
import { type ListedDiscount, useCreateDiscount, useUpdateDiscount } from './use-discounts';

/** Creates a sale or a code, or edits one; checked by the same Zod input as the server (shared/discount-input.ts). */
export function DiscountDialog({
  discount,
  currency,
  timeZone,
  onClose,
}: {
  discount: ListedDiscount | null;
  currency: string;
  timeZone: string;
  onClose: () => void;
}) {
  const form = useZodForm(discountInput, discount ? discount.form : emptyDiscountForm(currency), {
    serverField: 'fields',
  });
  const { values, set, error } = form;
  const create = useCreateDiscount();
  const update = useUpdateDiscount();
  const [refusal, setRefusal] = useState<string | null>(null);
  const busy = create.isPending || update.isPending;
  const isCode = values.kind === 'code';
  const codeLocked = discount !== null && discount.uses > 0;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setRefusal(null);
    const outcome = await form.save((fields) =>
      discount ? update.mutateAsync({ id: discount.id, fields }) : create.mutateAsync({ fields }),
    );
    if (outcome === 'saved') onClose();
    else if (outcome === 'invalid') setRefusal('Please correct the highlighted fields.');
    else if (outcome.code === 'CONFLICT' && isCode) form.setErrors({ code: outcome.message });
    else if (Object.keys(outcome.fieldErrors).length === 0) setRefusal(outcome.message);
    else setRefusal('Please correct the highlighted fields.');
  };

  return (
    <Modal title={discount ? `Edit ${discount.name}` : 'New sale or code'} onClose={onClose} wide>
      <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4" aria-label="Discount">
        <p className="rounded-lg bg-sand px-3 py-2 text-sm" data-testid="stacking-rule">
          {DISCOUNT_STACKING_RULE}
        </p>
        {discount === null ? (
          <Choice
            legend="Kind"
            name="kind"
            value={values.kind}
            onChange={(v) => {
              set('kind', v);
              if (v === 'sale' && values.valueType === 'free_shipping') set('valueType', 'percent');
            }}
            options={[
              ['sale', 'Sale (automatic, no code)'],
              ['code', 'Code (entered at checkout)'],
            ]}
          />
        ) : null}
        <TextField
          label="Name"
          value={values.name}
          maxLength={100}
          onChange={(e) => set('name', e.target.value)}
          error={error('name')}
        />
        {isCode ? (
          <TextField
            label="Code"
            value={values.code}
            maxLength={40}
            autoCapitalize="characters"
            disabled={codeLocked}
            hint={
              codeLocked
                ? 'The code cannot change once it has been used.'
                : '3 to 40 letters, digits, - or _. Shoppers may type it in any case.'
            }
            onChange={(e) => set('code', e.target.value)}
            error={error('code')}
          />
        ) : null}
        <Choice
          legend="Takes off"
          name="valueType"
          value={values.valueType}
          onChange={(v) => set('valueType', v)}
          error={error('valueType')}
          options={[
            ['percent', 'A percentage'],
            ['fixed', 'A fixed amount'],
            ...(isCode ? [['free_shipping', 'Free shipping'] as const] : []),
          ]}
        />
        <div className="grid gap-4 sm:grid-cols-3">
          {values.valueType === 'percent' ? (
            <TextField
              label="Percentage off"
              inputMode="numeric"
              hint={isCode ? 'From 1 to 100' : 'From 1 to 90'}
              value={values.percent}
              onChange={(e) => set('percent', e.target.value)}
              error={error('percent')}
            />
          ) : null}
          {values.valueType === 'fixed' ? (
            <TextField
              label={isCode ? 'Amount off' : 'Amount off each item'}
              inputMode="decimal"
              value={values.amount}
              onChange={(e) => set('amount', e.target.value)}
              error={error('amount')}
            />
          ) : null}
          {values.valueType === 'fixed' || isCode ? (
            <TextField
              label="Currency"
              maxLength={3}
              value={values.currency}
              onChange={(e) => set('currency', e.target.value)}
              error={error('currency')}
            />
          ) : null}
        </div>
        {isCode && values.valueType !== 'free_shipping' ? (
          <Choice
            legend="Applies to"
            name="target"
            value={values.target}
            onChange={(v) => set('target', v)}
            error={error('target')}
            options={[
              ['order', 'The whole order'],
              ['items', 'Only the items it covers'],
            ]}
          />
        ) : null}
        <Choice
          legend="Covers"
          name="scopeKind"
          value={values.scopeKind}
          onChange={(v) => set('scopeKind', v)}
          error={error('scopeKind')}
          options={[
            ['all', 'Every product'],
            ['tags', 'Products with any of these tags'],
            ['products', 'Chosen products'],
          ]}
        />
        {values.scopeKind === 'tags' ? (
          <ChipsInput
            label="Tags"
            values={values.tags}
            onChange={(v) => set('tags', v)}
            placeholder="A tag, then Enter"
            error={error('tags')}
          />
        ) : null}
        {values.scopeKind === 'products' ? (
          <ChipsInput
            label="Product ids"
            values={values.products}
            onChange={(v) => set('products', v)}
            placeholder="A product id, then Enter"
            error={error('products')}
          />
        ) : null}
        <ChipsInput
          label="Only these colours (optional)"
          values={values.colours}
          onChange={(v) => set('colours', v)}
          placeholder="A colour, then Enter"
          error={error('colours')}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Starts"
            type="datetime-local"
            hint={`In the shop’s time zone, ${timeZone}`}
            value={values.startsAt}
            onChange={(e) => set('startsAt', e.target.value)}
            error={error('startsAt')}
          />
          <TextField
            label="Ends (optional)"
            type="datetime-local"
            hint={`In the shop’s time zone, ${timeZone}`}
            value={values.endsAt}
            onChange={(e) => set('endsAt', e.target.value)}
            error={error('endsAt')}
          />
        </div>
        {isCode ? (
          <div className="grid gap-4 sm:grid-cols-3">
            <TextField
              label="Minimum order (optional)"
              inputMode="decimal"
              hint="Of the order at sale prices, in the currency above"
              value={values.minOrder}
              onChange={(e) => set('minOrder', e.target.value)}
              error={error('minOrder')}
            />
            <TextField
              label="Total uses (optional)"
              inputMode="numeric"
              value={values.maxUses}
              onChange={(e) => set('maxUses', e.target.value)}
              error={error('maxUses')}
            />
            <TextField
              label="Uses per email (optional)"
              inputMode="numeric"
              value={values.maxUsesPerEmail}
              onChange={(e) => set('maxUsesPerEmail', e.target.value)}
              error={error('maxUsesPerEmail')}
            />
          </div>
        ) : null}
        {refusal ? (
          <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
            {refusal}
          </p>
        ) : null}
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Saving…' : discount ? 'Save' : 'Create'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

/** A labelled group of radio buttons, its error tied to it. */
function Choice<V extends string>({
  legend,
  name,
  value,
  onChange,
  options,
  error,
}: {
  legend: string;
  name: string;
  value: V;
  onChange: (value: V) => void;
  options: ReadonlyArray<readonly [V, ReactNode]>;
  error?: string | undefined;
}) {
  const errorId = useId();
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend className="text-sm font-medium">{legend}</legend>
      <div className="mt-1 flex flex-wrap gap-x-5 gap-y-1">
        {options.map(([v, label]) => (
          <label key={v} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name={name}
              checked={value === v}
              onChange={() => onChange(v)}
              className="accent-maroon"
            />
            {label}
          </label>
        ))}
      </div>
      {error ? (
        <p id={errorId} className="mt-1 text-xs text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
