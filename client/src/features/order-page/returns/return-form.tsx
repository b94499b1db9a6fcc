import type { ReturnReasonName } from '@shared/returns';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useFocusFirstInvalid } from '../../../lib/use-focus-first-invalid';
import {
  availabilityText,
  checkReturnForm,
  type ExchangeOption,
  exchangeOffers,
  firstOfferNote,
  fittedNote,
  initialReturnForm,
  isFitReason,
  lineReturnable,
  MAX_REASON_TEXT,
  optionKey,
  optionName,
  REASON_CHOICES,
  type ReturnableLine,
  type ReturnFormValues,
  type ReturnOptionsView,
  type ReturnRequest,
  refundAllowed,
  withReason,
} from './return-choices';
import { offerDifferenceText, pricedDifferenceNote } from './return-difference';

const errorText = 'mt-1 text-sm text-red-700';
const invalid = (error: string | undefined) => (error ? true : undefined);

/**
 * The shopper's choices: which items and how many, why, then an exchange (the next size first for a fit)
 * or, where the owner allows it for that reason, a refund. Errors sit by their fields; the first takes focus.
 */
export function ReturnForm({
  options,
  currency,
  pending,
  refusal,
  onSubmit,
}: {
  options: ReturnOptionsView;
  /** The order's currency, which a replacement's price difference is in. */
  currency: string;
  pending: boolean;
  refusal: string | null;
  onSubmit: (request: ReturnRequest) => void;
}) {
  const [values, setValues] = useState<ReturnFormValues>(() => initialReturnForm(options));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const ref = useRef<HTMLFormElement>(null);
  const focusFirstError = useFocusFirstInvalid(ref);
  const id = useId();
  const { reason } = values;
  const refundOk = refundAllowed(reason, options.settings.refundReasons);
  const chosen = options.lines.filter((l) => lineReturnable(l) && values.lines[l.lineId]?.selected);
  const firstReturnable = options.lines.find(lineReturnable);
  const refusalRef = useRef<HTMLParagraphElement>(null);
  // A refusal from the shop (the last unit went, the window closed meanwhile) is where focus goes.
  useEffect(() => {
    if (refusal) refusalRef.current?.focus();
  }, [refusal]);

  const setLine = (lineId: number, change: Partial<ReturnFormValues['lines'][number]>) =>
    setValues((v) => {
      const current = v.lines[lineId] ?? { selected: false, quantity: '1', exchange: '' };
      return { ...v, lines: { ...v.lines, [lineId]: { ...current, ...change } } };
    });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = checkReturnForm(values, options);
    setErrors(checked.errors);
    if (checked.request) onSubmit(checked.request);
    else focusFirstError();
  };

  // The one-line case reads as the issue puts it: "Exchange for L — in stock".
  const single = chosen.length === 1 ? chosen[0] : undefined;
  const suggestion = single && reason !== '' ? exchangeOffers(single, reason)[0] : undefined;
  const exchangeLabel = suggestion
    ? `Exchange for ${offerText(suggestion, currency)}`
    : 'Exchange for another size';

  return (
    <form ref={ref} noValidate onSubmit={submit} aria-label="Return or exchange" className="mt-4 space-y-6">
      <fieldset aria-describedby={errors.lines ? `${id}-lines-error` : undefined}>
        <legend className="font-medium">Which items?</legend>
        <ul className="mt-2 space-y-3">
          {options.lines.map((line) => (
            <LineChoice
              key={line.lineId}
              line={line}
              value={values.lines[line.lineId]}
              onChange={(change) => setLine(line.lineId, change)}
              quantityError={errors[`lines.${line.lineId}.quantity`]}
              // The list's own error marks its first box, so focus has somewhere to land.
              listInvalid={line.lineId === firstReturnable?.lineId && Boolean(errors.lines)}
            />
          ))}
        </ul>
        {errors.lines ? (
          <p id={`${id}-lines-error`} className={errorText}>
            {errors.lines}
          </p>
        ) : null}
      </fieldset>

      <fieldset aria-describedby={errors.reason ? `${id}-reason-error` : undefined}>
        <legend className="font-medium">Why are you returning it?</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {REASON_CHOICES.map((choice) => (
            <label key={choice.id} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name={`${id}-reason`}
                value={choice.id}
                checked={reason === choice.id}
                onChange={() => setValues((v) => withReason(v, choice.id as ReturnReasonName, options))}
                aria-invalid={invalid(errors.reason)}
                className="h-4 w-4 accent-maroon"
              />
              {choice.label}
            </label>
          ))}
        </div>
        {errors.reason ? (
          <p id={`${id}-reason-error`} className={errorText}>
            {errors.reason}
          </p>
        ) : null}
      </fieldset>

      {reason !== '' ? (
        <div>
          <label htmlFor={`${id}-text`} className="block text-sm font-medium">
            {reason === 'other' ? 'What is wrong?' : 'Anything to add? (optional)'}
          </label>
          <textarea
            id={`${id}-text`}
            value={values.reasonText}
            maxLength={MAX_REASON_TEXT + 100}
            rows={3}
            required={reason === 'other'}
            onChange={(e) => setValues((v) => ({ ...v, reasonText: e.target.value }))}
            aria-invalid={invalid(errors.reasonText)}
            aria-describedby={`${id}-text-hint${errors.reasonText ? ` ${id}-text-error` : ''}`}
            className={`mt-1 block w-full rounded-lg border bg-white px-3 py-2 text-sm ${errors.reasonText ? 'border-red-700' : 'border-stone-line'}`}
          />
          <p id={`${id}-text-hint`} className="mt-1 text-xs text-muted">
            Up to {MAX_REASON_TEXT} characters ({values.reasonText.trim().length} used).
          </p>
          {errors.reasonText ? (
            <p id={`${id}-text-error`} className={errorText}>
              {errors.reasonText}
            </p>
          ) : null}
        </div>
      ) : null}

      {reason !== '' ? (
        <fieldset aria-describedby={errors.resolution ? `${id}-resolution-error` : `${id}-resolution-hint`}>
          <legend className="font-medium">What would you like instead?</legend>
          <div className="mt-2 space-y-2">
            <label className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name={`${id}-resolution`}
                value="exchange"
                checked={values.resolution === 'exchange'}
                onChange={() => setValues((v) => ({ ...v, resolution: 'exchange' }))}
                aria-invalid={invalid(errors.resolution)}
                className="h-4 w-4 accent-maroon"
              />
              {exchangeLabel}
            </label>
            {refundOk ? (
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name={`${id}-resolution`}
                  value="refund"
                  checked={values.resolution === 'refund'}
                  onChange={() => setValues((v) => ({ ...v, resolution: 'refund' }))}
                  aria-invalid={invalid(errors.resolution)}
                  className="h-4 w-4 accent-maroon"
                />
                A refund
              </label>
            ) : null}
          </div>
          <p id={`${id}-resolution-hint`} className="mt-1 text-xs text-muted">
            {refundOk
              ? isFitReason(reason)
                ? 'The new size is held for you until your return is closed or cancelled.'
                : 'A replacement is held for you until your return is closed or cancelled.'
              : 'For this reason the shop offers an exchange only.'}
          </p>
          {errors.resolution ? (
            <p id={`${id}-resolution-error`} className={errorText}>
              {errors.resolution}
            </p>
          ) : null}
        </fieldset>
      ) : null}

      {reason !== '' && values.resolution === 'exchange'
        ? chosen.map((line) => (
            <ExchangeChoice
              key={line.lineId}
              line={line}
              reason={reason}
              currency={currency}
              value={values.lines[line.lineId]?.exchange ?? ''}
              onChange={(exchange) => setLine(line.lineId, { exchange })}
              error={errors[`lines.${line.lineId}.exchange`]}
            />
          ))
        : null}

      {Object.keys(errors).length > 0 ? (
        <p role="alert" className="text-sm text-red-700">
          Please correct the highlighted choices.
        </p>
      ) : null}
      {refusal ? (
        <p
          ref={refusalRef}
          role="alert"
          tabIndex={-1}
          className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800"
          data-testid="return-refusal"
        >
          {refusal}
        </p>
      ) : null}
      <Button type="submit" disabled={pending}>
        {pending ? 'Sending…' : 'Send my request'}
      </Button>
    </form>
  );
}

function LineChoice({
  line,
  value,
  onChange,
  quantityError,
  listInvalid,
}: {
  line: ReturnableLine;
  value: ReturnFormValues['lines'][number] | undefined;
  onChange: (change: Partial<ReturnFormValues['lines'][number]>) => void;
  quantityError: string | undefined;
  listInvalid: boolean;
}) {
  const id = useId();
  const name = [line.title, line.colour, line.size ? `size ${line.size}` : null].filter(Boolean).join(', ');
  const why = line.finalSale
    ? 'Final sale: cannot be returned online.'
    : line.returnable === 0
      ? 'Already returned.'
      : null;
  return (
    <li className="rounded-xl border border-stone-line p-3">
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={Boolean(value?.selected) && why === null}
          disabled={why !== null}
          onChange={(e) => onChange({ selected: e.target.checked })}
          aria-invalid={listInvalid ? true : undefined}
          aria-describedby={why ? `${id}-why` : undefined}
          className="h-4 w-4 accent-maroon"
        />
        <span className="font-medium">{name}</span>
      </label>
      {why ? (
        <p id={`${id}-why`} className="mt-1 text-xs text-muted">
          {why}
        </p>
      ) : null}
      {value?.selected && why === null && line.returnable > 1 ? (
        <div className="mt-2">
          <label htmlFor={`${id}-qty`} className="text-sm">
            How many? (up to {line.returnable})
          </label>
          <input
            id={`${id}-qty`}
            type="number"
            inputMode="numeric"
            min={1}
            max={line.returnable}
            step={1}
            value={value.quantity}
            onChange={(e) => onChange({ quantity: e.target.value })}
            aria-invalid={invalid(quantityError)}
            aria-describedby={quantityError ? `${id}-qty-error` : undefined}
            className={`ml-2 w-20 rounded-lg border bg-white px-2 py-1 text-sm ${quantityError ? 'border-red-700' : 'border-stone-line'}`}
          />
          {quantityError ? (
            <p id={`${id}-qty-error`} className={errorText}>
              {quantityError}
            </p>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

/** "L — in stock", then its price difference per unit when it has one: "L — 1 left, +Rs 500 to pay". */
function offerText(option: ExchangeOption, currency: string, note = ''): string {
  const difference = offerDifferenceText(option.differenceMinor, currency);
  return `${optionName(option)} — ${availabilityText(option)}${note}${difference ? `, ${difference}` : ''}`;
}

function ExchangeChoice({
  line,
  reason,
  currency,
  value,
  onChange,
  error,
}: {
  line: ReturnableLine;
  reason: ReturnReasonName;
  currency: string;
  value: string;
  onChange: (key: string) => void;
  error: string | undefined;
}) {
  const id = useId();
  const offers = exchangeOffers(line, reason);
  const picked = offers.find((o) => optionKey(o) === value);
  const priceNote = picked ? pricedDifferenceNote(picked.differenceMinor, currency) : null;
  const fitted = fittedNote(line, reason);
  const describedBy = [fitted ? `${id}-fit` : '', priceNote ? `${id}-price` : '', error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {line.title}
        {line.size ? ` (size ${line.size})` : ''}: exchange for
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={invalid(error)}
        aria-describedby={describedBy || undefined}
        className={`mt-1 rounded-lg border bg-white px-2 py-1.5 text-sm ${error ? 'border-red-700' : 'border-stone-line'}`}
      >
        {offers.length === 0 ? <option value="">No other size in stock</option> : null}
        {offers.map((o, i) => (
          <option key={optionKey(o)} value={optionKey(o)}>
            {offerText(
              o,
              currency,
              i === 0 && isFitReason(reason) && o === line.nextSizes[reason] ? firstOfferNote(o, reason) : '',
            )}
          </option>
        ))}
      </select>
      {fitted ? (
        <p id={`${id}-fit`} className="mt-1 text-sm text-muted" data-testid="return-fitted">
          {fitted}
        </p>
      ) : null}
      {priceNote ? (
        <p id={`${id}-price`} className="mt-1 text-xs text-muted" data-testid="exchange-difference">
          {priceNote}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className={errorText}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
