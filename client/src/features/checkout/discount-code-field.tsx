import type { Quote } from '@shared/checkout';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { type CartCode, cartCode } from '../../lib/cart/cart-code';

/**
 * The cart's "Discount code" field (decision 0037): Apply sends the code with the next quote; the server
 * says whether it applies and, if not, why, announced to screen readers. A code limited per customer asks
 * for the shopper's email address, which checkout sends with it.
 */
export function DiscountCodeField({
  code,
  quote,
  error,
  setError,
  pending,
}: {
  code: CartCode;
  quote: Quote | undefined;
  /** A message the quote gave for a code it dropped (unknown, or too many wrong ones). */
  error: string | null;
  setError: (message: string | null) => void;
  /** The quote with the code is on its way. */
  pending: boolean;
}) {
  const id = useId();
  const [draft, setDraft] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const applied = quote?.code ?? null;
  const refusal = code.code ? (quote?.codeRefusal ?? null) : null;
  const message = error ?? refusal?.message ?? null;

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const typed = draft.trim();
    if (!typed) {
      setError('Enter a discount code.');
      return;
    }
    setError(null);
    cartCode.apply(typed);
    setDraft('');
  };

  return (
    <div className="mt-6 rounded-xl border border-stone-line p-4">
      {/* The field stays in place whatever happens, so focus never falls to the page: a new code replaces
          the one kept (one code per order). */}
      <form onSubmit={apply} className="flex flex-wrap items-end gap-3" noValidate>
        <div className="min-w-48 flex-1">
          <label htmlFor={`${id}-code`} className="block text-sm font-medium text-ink">
            Discount code
          </label>
          <input
            ref={input}
            id={`${id}-code`}
            name="discount-code"
            value={draft}
            maxLength={40}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            onChange={(e) => setDraft(e.target.value)}
            aria-invalid={message ? true : undefined}
            aria-describedby={`${id}-status`}
            className={`mt-1 block w-full rounded-lg border bg-white px-3 py-2 text-sm uppercase ${message ? 'border-red-700' : 'border-stone-line'}`}
          />
        </div>
        <Button type="submit" variant="secondary" disabled={pending}>
          Apply
        </Button>
      </form>
      {code.code ? (
        <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm">
            Code <strong data-testid="applied-code">{applied?.code ?? code.code}</strong>
            {applied ? <span className="text-muted"> · {applied.name}</span> : null}
          </p>
          <button
            type="button"
            className="text-sm underline"
            onClick={() => {
              cartCode.remove();
              setError(null);
              input.current?.focus();
            }}
          >
            Remove<span className="sr-only"> discount code {code.code}</span>
          </button>
        </div>
      ) : null}
      {applied?.needsEmail ? (
        <div className="mt-3">
          <label htmlFor={`${id}-email`} className="block text-sm font-medium text-ink">
            Email address (this code can be used a limited number of times per customer)
          </label>
          <input
            id={`${id}-email`}
            type="email"
            autoComplete="email"
            defaultValue={code.email ?? ''}
            maxLength={254}
            onBlur={(e) => cartCode.setEmail(e.target.value)}
            className="mt-1 block w-full rounded-lg border border-stone-line bg-white px-3 py-2 text-sm"
          />
        </div>
      ) : null}
      {/* Polite: the result of Apply is read out when the quote comes back, without moving focus. */}
      <p id={`${id}-status`} aria-live="polite" className="mt-2 text-sm" data-testid="discount-code-status">
        {message ? (
          <span className="text-red-700">{message}</span>
        ) : applied && code.code ? (
          <span className="text-emerald-800">
            {applied.freeShipping ? 'Free shipping applies.' : `Code ${applied.code} applied.`}
          </span>
        ) : pending && code.code ? (
          'Checking the code…'
        ) : null}
      </p>
    </div>
  );
}
