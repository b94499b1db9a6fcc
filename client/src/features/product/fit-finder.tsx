import type { SizeDetail } from '@shared/catalogue';
import type { LineFit } from '@shared/checkout-input';
import {
  type ChartMeasurement,
  describeAnswer,
  type FitAnswer,
  type FitChart,
  type FitKey,
  parseShopperValue,
  readFitChart,
  recommendSize,
  type SetAside,
  type Unit,
} from '@shared/fit-finder';
import { Ruler } from 'lucide-react';
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { useFocusFirstInvalid } from '../../lib/use-focus-first-invalid';
import {
  clearMeasurements,
  fieldText,
  fitForLine,
  readMeasurements,
  saveMeasurements,
} from './fit-measurements';

const HINTS: Record<FitKey, string> = {
  chest: 'Around the fullest part of your chest or bust, under the arms.',
  waist: 'Around your natural waist, its narrowest part.',
  hip: 'Around the fullest part of your hips.',
  shoulder: 'Across your back, from one shoulder point to the other.',
  neck: 'Around the base of your neck, where a collar sits.',
};

const UNIT_NAMES: Record<Unit, string> = { cm: 'Centimetres (cm)', in: 'Inches (in)' };

/**
 * "Find my size" beside the size picker (decision 0021): a disclosure with one field per body measurement
 * this product's chart has numbers for, a cm/in choice, and the answer with its reasons in a live region.
 * Shown only when the chart has such numbers. `onChoose` sets the page's size picker; `onMeasured` hears the
 * measurements each answer was given for (null once cleared or edited), which go with the line added to the
 * cart (decision 0040).
 */
export function FitFinder({
  sizes,
  detail,
  onChoose,
  onMeasured,
  soldOutSizes = [],
}: {
  sizes: string[];
  detail: SizeDetail;
  onChoose: (size: string) => void;
  onMeasured?: (fit: LineFit | null) => void;
  /** Sizes that cannot be bought now: offered, but not choosable. */
  soldOutSizes?: readonly string[];
}) {
  const sizesKey = sizes.join('\n');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the sizes array is new on every render; its content is the key.
  const chart = useMemo(() => readFitChart(sizes, detail), [sizesKey, detail]);
  const [open, setOpen] = useState(false);
  const panelId = useId();
  if (chart.measurements.length === 0) return null;
  return (
    <div className="mt-4">
      <Button
        variant="secondary"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        data-testid="fit-finder-toggle"
      >
        <Ruler aria-hidden="true" className="h-4 w-4" />
        Find my size
      </Button>
      {open ? (
        <FitFinderPanel
          id={panelId}
          chart={chart}
          sizes={sizes}
          onChoose={onChoose}
          onMeasured={onMeasured}
          soldOutSizes={soldOutSizes}
        />
      ) : null}
    </div>
  );
}

type Texts = Partial<Record<FitKey, string>>;

/** Reads the fields: the values to compare, or a message per field that cannot be. */
function readFields(measurements: ChartMeasurement[], texts: Texts, unit: Unit) {
  const values: Partial<Record<FitKey, number>> = {};
  const errors: Partial<Record<FitKey, string>> = {};
  for (const m of measurements) {
    const field = parseShopperValue(texts[m.key] ?? '', m.key, m.label, unit);
    if (field.error) errors[m.key] = field.error;
    else if (field.value !== null) values[m.key] = field.value;
  }
  return { values, errors, valid: Object.keys(errors).length === 0 };
}

function FitFinderPanel({
  id,
  chart,
  sizes,
  onChoose,
  onMeasured,
  soldOutSizes,
}: {
  id: string;
  chart: FitChart;
  sizes: string[];
  onChoose: (size: string) => void;
  onMeasured: ((fit: LineFit | null) => void) | undefined;
  soldOutSizes: readonly string[];
}) {
  const { measurements } = chart;
  const keys = measurements.map((m) => m.key);
  const unitGroup = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const focusFirstInvalid = useFocusFirstInvalid(formRef);
  // Read once, when the panel opens (never on the server: the panel starts closed).
  const [stored] = useState(readMeasurements);
  const [unit, setUnit] = useState<Unit>(stored?.unit ?? measurements[0]?.unit ?? 'cm');
  const [texts, setTexts] = useState<Texts>(() =>
    Object.fromEntries(keys.map((k) => [k, fieldText(stored?.cm[k], stored?.unit ?? 'cm')])),
  );
  const [errors, setErrors] = useState<Partial<Record<FitKey, string>>>({});
  const [answer, setAnswer] = useState<FitAnswer | null>(null);
  const [message, setMessage] = useState('');
  const prefilled = keys.some((k) => stored?.cm[k] !== undefined);

  // Remembered measurements answer at once; set after the first render so the live region announces it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only what the panel opened with.
  useEffect(() => {
    if (!prefilled) return;
    const read = readFields(measurements, texts, unit);
    if (!read.valid) return;
    setAnswer(recommendSize(chart, sizes, { unit, values: read.values }));
    onMeasured?.(fitForLine(unit, keys, read.values));
  }, []);

  const edited = () => {
    setAnswer(null);
    setMessage('');
    onMeasured?.(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const read = readFields(measurements, texts, unit);
    setErrors(read.errors);
    setMessage('');
    if (!read.valid) {
      setAnswer(null);
      focusFirstInvalid();
      return;
    }
    saveMeasurements(unit, keys, read.values);
    setAnswer(recommendSize(chart, sizes, { unit, values: read.values }));
    onMeasured?.(fitForLine(unit, keys, read.values));
  };

  const clear = () => {
    clearMeasurements();
    setTexts({});
    setErrors({});
    setAnswer(null);
    onMeasured?.(null);
    setMessage('Your measurements are cleared from this device.');
  };

  const offered = !answer
    ? []
    : answer.kind === 'size' || answer.kind === 'conflict'
      ? [answer.size]
      : answer.kind === 'between'
        ? answer.sizes
        : [];

  return (
    <div id={id} className="mt-3 rounded-xl border border-stone-line bg-white p-4" data-testid="fit-finder">
      <form ref={formRef} onSubmit={submit} noValidate aria-label="Find my size" className="space-y-4">
        <p className="text-sm text-muted">
          Measure your body, not a garment, and we compare it with this product's size chart. Your
          measurements are remembered on this device. If you then add a size to your cart, they go with your
          order, so that the shop can offer the size that fits should you exchange it; they are erased once
          the order can no longer be returned.
          {prefilled ? ' Filled in from the measurements you gave before.' : ''}
        </p>
        <fieldset className="flex flex-wrap gap-x-5 gap-y-2 text-sm">
          <legend className="mb-1 font-medium">My measurements are in</legend>
          {(['cm', 'in'] as const).map((u) => (
            <label key={u} className="flex min-h-11 items-center gap-2">
              <input
                type="radio"
                name={unitGroup}
                value={u}
                checked={unit === u}
                onChange={() => {
                  setUnit(u);
                  setErrors({});
                  edited();
                }}
                className="h-4 w-4 accent-maroon"
              />
              {UNIT_NAMES[u]}
            </label>
          ))}
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          {measurements.map((m) => (
            <TextField
              key={m.key}
              label={`${m.label} (${unit})`}
              hint={HINTS[m.key]}
              error={errors[m.key] ?? null}
              name={m.key}
              inputMode="decimal"
              autoComplete="off"
              value={texts[m.key] ?? ''}
              onChange={(e) => {
                const text = e.currentTarget.value;
                setTexts((t) => ({ ...t, [m.key]: text }));
                setErrors(({ [m.key]: _, ...rest }) => rest);
                edited();
              }}
            />
          ))}
        </div>
        <ChartNotes chart={chart} />
        <div className="flex flex-wrap gap-3">
          <Button type="submit">Show my size</Button>
          <Button variant="ghost" onClick={clear}>
            Clear my measurements
          </Button>
        </div>
      </form>

      <div role="status" data-testid="fit-finder-result">
        {answer ? <AnswerText answer={answer} /> : null}
      </div>
      {offered.length > 0 ? (
        <div className="mt-3 flex flex-wrap gap-3">
          {offered.map((size) =>
            soldOutSizes.includes(size) ? (
              <Button key={size} variant="secondary" disabled>
                {size} is sold out
              </Button>
            ) : (
              <Button
                key={size}
                variant="secondary"
                onClick={() => {
                  onChoose(size);
                  setMessage(`Size ${size} is chosen.`);
                }}
              >
                Choose {size}
              </Button>
            ),
          )}
        </div>
      ) : null}
      <div role="status" data-testid="fit-finder-message">
        {message ? <p className="mt-3 text-sm">{message}</p> : null}
      </div>
    </div>
  );
}

/** The answer: a headline, one reason per measurement ("chest 38 in → M (38 in)") and any notes. */
function AnswerText({ answer }: { answer: FitAnswer }) {
  const { headline, reasons, notes } = describeAnswer(answer);
  return (
    <div className="mt-4 rounded-lg bg-sand p-4 text-sm">
      <p className="font-medium text-ink">{headline}</p>
      {reasons.length > 0 ? (
        <ul className="mt-2 space-y-1" aria-label="Reasons">
          {reasons.map((r) => (
            <li key={r}>
              <Reason text={r} />
            </li>
          ))}
        </ul>
      ) : null}
      {notes.map((n) => (
        <p key={n} className="mt-2 text-muted">
          {n}
        </p>
      ))}
    </div>
  );
}

/** The arrow reads as "fits" to a screen reader rather than "right arrow". */
function Reason({ text }: { text: string }) {
  const [measured, sizes] = text.split(' → ');
  if (sizes === undefined) return <>{text}</>;
  return (
    <>
      {measured} <span aria-hidden="true">→</span> <span className="sr-only">fits</span> {sizes}
    </>
  );
}

const asideText = (list: SetAside[]) => list.map((s) => s.label.toLowerCase()).join(', ');

/** What the chart cannot compare, said rather than skipped. */
function ChartNotes({ chart }: { chart: FitChart }) {
  const by = (reason: SetAside['reason']) => chart.setAside.filter((s) => s.reason === reason);
  const notes = [
    by('length').length > 0
      ? `Lengths (${asideText(by('length'))}) are the garment's own: compare them with a piece you own in the Size Details below.`
      : null,
    by('no-numbers').length > 0 ? `This chart has no numbers for ${asideText(by('no-numbers'))}.` : null,
    by('no-unit').length > 0
      ? `This chart does not say whether ${asideText(by('no-unit'))} is in cm or inches, so it is not compared.`
      : null,
    by('not-in-size-order').length > 0
      ? `This chart's numbers for ${asideText(by('not-in-size-order'))} do not grow with the size, so they are not compared.`
      : null,
    ...by('repeated').map(
      (s) => `${s.label} repeats a measurement already compared, so only the first column counts.`,
    ),
    ...chart.measurements.flatMap((m) => [
      m.missing.length > 0
        ? `This chart has no ${m.label.toLowerCase()} number for ${m.missing.join(', ')}: ${m.label.toLowerCase()} cannot point to ${m.missing.length > 1 ? 'them' : 'it'}.`
        : null,
      m.unitFromChart
        ? `${m.label} has no unit in the chart: it is read in ${m.unit}, like the chart's other columns.`
        : null,
    ]),
  ].filter((n): n is string => n !== null);
  if (notes.length === 0) return null;
  return (
    <ul className="space-y-1 text-xs text-muted">
      {notes.map((n) => (
        <li key={n}>{n}</li>
      ))}
    </ul>
  );
}
