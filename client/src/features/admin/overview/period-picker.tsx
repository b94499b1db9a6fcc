import {
  DASHBOARD_PRESET_LABEL,
  DASHBOARD_PRESETS,
  type DashboardPeriodInput,
  dashboardPeriodInput,
} from '@shared/dashboard';
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { periodQuery } from './figures';

/**
 * The period the figures are for: a preset applies at once; custom days apply when shown (the button), so a
 * half-typed date never sends a query, and the two days are checked by the same schema the server uses.
 */
export function PeriodPicker({
  value,
  onChange,
}: {
  value: DashboardPeriodInput;
  onChange: (period: DashboardPeriodInput) => void;
}) {
  const id = useId();
  const [preset, setPreset] = useState(value.preset ?? '7d');
  const [from, setFrom] = useState(value.from ?? '');
  const [to, setTo] = useState(value.to ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const apply = () => {
    const checked = dashboardPeriodInput.safeParse(periodQuery('custom', from, to));
    if (!checked.success) {
      setProblem(checked.error.issues[0]?.message ?? 'Choose both days');
      return;
    }
    setProblem(null);
    onChange(periodQuery('custom', from, to));
  };
  return (
    <form
      aria-label="Period"
      className="flex flex-wrap items-end gap-3 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        apply();
      }}
    >
      <label className="flex flex-col gap-1">
        <span>Period</span>
        <select
          value={preset}
          onChange={(e) => {
            const next = DASHBOARD_PRESETS.find((p) => p === e.target.value) ?? '7d';
            setPreset(next);
            setProblem(null);
            if (next !== 'custom') onChange(periodQuery(next, '', ''));
          }}
          className="rounded-lg border border-stone-line bg-white px-2 py-1.5"
        >
          {DASHBOARD_PRESETS.map((p) => (
            <option key={p} value={p}>
              {DASHBOARD_PRESET_LABEL[p]}
            </option>
          ))}
        </select>
      </label>
      {preset === 'custom' ? (
        <>
          <label className="flex flex-col gap-1" htmlFor={`${id}-from`}>
            First day
            <input
              id={`${id}-from`}
              type="date"
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-error` : undefined}
              className="rounded-lg border border-stone-line bg-white px-2 py-1.5"
            />
          </label>
          <label className="flex flex-col gap-1" htmlFor={`${id}-to`}>
            Last day
            <input
              id={`${id}-to`}
              type="date"
              value={to}
              onChange={(e) => setTo(e.target.value)}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-error` : undefined}
              className="rounded-lg border border-stone-line bg-white px-2 py-1.5"
            />
          </label>
          <Button type="submit" variant="secondary">
            Show
          </Button>
          {problem ? (
            <p id={`${id}-error`} role="alert" className="w-full text-xs text-red-700">
              {problem}
            </p>
          ) : null}
        </>
      ) : null}
    </form>
  );
}
