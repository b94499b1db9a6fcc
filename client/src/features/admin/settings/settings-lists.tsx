import type { SettingsInput } from '@shared/settings-input';
import { Plus, Trash2 } from 'lucide-react';
import { Button } from '../../../components/ui/button';

type Values = SettingsInput;

/** The store's credits (role and name), up to 20 rows. */
export function Credits({
  values,
  onChange,
}: {
  values: Values['credits'];
  onChange: (v: Values['credits']) => void;
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">Credits</legend>
      {values.map((c, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place and have no identity.
        <div key={i} className="flex gap-2">
          <input
            aria-label={`Credit ${i + 1} role`}
            value={c.role}
            onChange={(e) => onChange(values.map((x, j) => (j === i ? { ...x, role: e.target.value } : x)))}
            className="flex-1 rounded-lg border border-stone-line px-3 py-1.5 text-sm"
          />
          <input
            aria-label={`Credit ${i + 1} name`}
            value={c.name}
            onChange={(e) => onChange(values.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))}
            className="flex-1 rounded-lg border border-stone-line px-3 py-1.5 text-sm"
          />
          <RemoveRow
            label={`Remove credit ${i + 1}`}
            onClick={() => onChange(values.filter((_, j) => j !== i))}
          />
        </div>
      ))}
      <Button
        variant="ghost"
        className="px-3 py-1"
        onClick={() => onChange([...values, { role: '', name: '' }])}
        disabled={values.length >= 20}
      >
        <Plus aria-hidden="true" className="h-4 w-4" /> Add credit
      </Button>
    </fieldset>
  );
}

/** Checkout's shipping options, up to five, each with its amount and delivery estimate. */
export function ShippingOptions({
  values,
  onChange,
  error,
}: {
  values: Values['shippingOptions'];
  onChange: (v: Values['shippingOptions']) => void;
  error: (path: string) => string | undefined;
}) {
  const update = (i: number, change: Partial<Values['shippingOptions'][number]>) =>
    onChange(values.map((x, j) => (j === i ? { ...x, ...change } : x)));
  const days = (v: string) => (v === '' ? null : Number(v));
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">Shipping options (up to 5)</legend>
      {values.map((o, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place and have no identity.
        <div key={i} className="grid grid-cols-[2fr_1fr_5rem_4rem_4rem_auto] items-start gap-2 text-sm">
          <input
            aria-label={`Option ${i + 1} name`}
            value={o.label}
            onChange={(e) => update(i, { label: e.target.value })}
            className="rounded-lg border border-stone-line px-2 py-1.5"
          />
          <div>
            <input
              aria-label={`Option ${i + 1} amount`}
              inputMode="decimal"
              value={o.amount}
              onChange={(e) => update(i, { amount: e.target.value })}
              className="w-full rounded-lg border border-stone-line px-2 py-1.5"
            />
            {error(`shippingOptions.${i}.amount`) ? (
              <p className="text-xs text-red-700">{error(`shippingOptions.${i}.amount`)}</p>
            ) : null}
          </div>
          <input
            aria-label={`Option ${i + 1} currency`}
            value={o.currency}
            onChange={(e) => update(i, { currency: e.target.value })}
            className="rounded-lg border border-stone-line px-2 py-1.5"
          />
          <input
            aria-label={`Option ${i + 1} minimum days`}
            type="number"
            min={0}
            value={o.minDays ?? ''}
            onChange={(e) => update(i, { minDays: days(e.target.value) })}
            className="rounded-lg border border-stone-line px-2 py-1.5"
          />
          <input
            aria-label={`Option ${i + 1} maximum days`}
            type="number"
            min={0}
            value={o.maxDays ?? ''}
            onChange={(e) => update(i, { maxDays: days(e.target.value) })}
            className="rounded-lg border border-stone-line px-2 py-1.5"
          />
          <RemoveRow
            label={`Remove option ${i + 1}`}
            onClick={() => onChange(values.filter((_, j) => j !== i))}
          />
        </div>
      ))}
      <Button
        variant="ghost"
        className="px-3 py-1"
        onClick={() =>
          onChange([...values, { label: '', amount: '0', currency: 'usd', minDays: null, maxDays: null }])
        }
        disabled={values.length >= 5}
      >
        <Plus aria-hidden="true" className="h-4 w-4" /> Add shipping option
      </Button>
    </fieldset>
  );
}

function RemoveRow({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button
      type="button"
      aria-label={label}
      onClick={onClick}
      className="rounded p-1.5 text-muted hover:text-red-700"
    >
      <Trash2 aria-hidden="true" className="h-4 w-4" />
    </button>
  );
}
