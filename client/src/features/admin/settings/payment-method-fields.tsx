import type { ReactNode } from 'react';
import { ChipsInput } from '../../../components/admin/chips-input';
import { TextField } from '../../../components/ui/text-field';

/** One method's box: its name as the legend, the switch that offers it, then its own fields. */
export function MethodFieldset({
  legend,
  enabled,
  onEnabled,
  switchLabel,
  children,
}: {
  legend: string;
  enabled: boolean;
  onEnabled: (on: boolean) => void;
  switchLabel: string;
  children: ReactNode;
}) {
  return (
    <fieldset className="space-y-3 rounded-xl border border-stone-line p-4">
      <legend className="px-1 text-sm font-medium">{legend}</legend>
      <Checkbox label={switchLabel} checked={enabled} onChange={onEnabled} />
      {children}
    </fieldset>
  );
}

export function Checkbox({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="h-4 w-4 accent-maroon"
      />
      {label}
    </label>
  );
}

/**
 * The shipping countries a method is offered for, typed as two-letter codes like the store's shipping
 * countries; an empty list offers the method wherever the store ships.
 */
export function MethodCountries({
  method,
  values,
  onChange,
  error,
}: {
  method: string;
  values: string[];
  onChange: (countries: string[]) => void;
  error: string | undefined;
}) {
  return (
    <div>
      <ChipsInput
        label={`${method}: countries`}
        values={values}
        onChange={(v) => onChange(v.map((c) => c.toUpperCase()))}
        placeholder="Two-letter code, then Enter"
        error={error}
      />
      <p className="mt-1 text-xs text-muted">
        {values.length === 0
          ? 'Offered for every country the store ships to.'
          : 'Offered only for these shipping countries.'}
      </p>
    </div>
  );
}

/**
 * A whole number the form keeps as a number; an emptied field holds NaN, which the form's check names
 * ("Enter a whole number…") instead of sending it.
 */
export function WholeNumberField({
  label,
  value,
  onChange,
  error,
  min,
  max,
  hint,
}: {
  label: string;
  value: number;
  onChange: (value: number) => void;
  error: string | undefined;
  min: number;
  max: number;
  hint?: string;
}) {
  return (
    <TextField
      label={label}
      type="number"
      inputMode="numeric"
      min={min}
      max={max}
      step={1}
      value={Number.isNaN(value) ? '' : value}
      onChange={(e) => onChange(e.target.value === '' ? Number.NaN : Number(e.target.value))}
      error={error}
      hint={hint}
    />
  );
}
