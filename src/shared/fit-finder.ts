import type { SizeDetail } from './catalogue.js';
import { FIT_KEYS, type FitKey } from './fit-keys.js';
import { sizeKey } from './sizes.js';

export { FIT_KEYS, type FitKey };

/**
 * The fit finder's rule (decision 0021): a product's size chart is read as the body measurement each size
 * fits, and a shopper's measurements are matched against it. Pure, so the client runs it and tests prove it.
 *
 * Only girths and the shoulder width decide a size (chest or bust, waist, hip, neck or collar, shoulder).
 * Lengths (length, sleeve, trouser length…) are the garment's own and are set aside with a reason, as are
 * columns that are not measurements (age), have no numbers, no unit, or do not grow with the size.
 */

export type Unit = 'in' | 'cm';
export const UNITS: readonly Unit[] = ['in', 'cm'];
/** Exactly, by definition. */
export const CM_PER_INCH = 2.54;

/** A chart cell read as a number, or as an inclusive range [min, max]. */
export type ChartValue = number | readonly [number, number];

export type MeasurementName = {
  /** The chart's own column name, e.g. "Chest (in)". */
  name: string;
  /** The name without its unit, e.g. "Chest". */
  label: string;
  unit: Unit | null;
  /** A body measurement the finder compares, a garment length, or anything else (age, widths laid flat). */
  kind: 'body' | 'length' | 'other';
  key: FitKey | null;
};

const UNIT_IN_NAME = /^(.*?)[\s,]*[([]\s*(?:in\s+)?(in|inch|inches|cm|cms)\.?\s*[)\]]\s*$/i;

/** Reads a size chart column name: its label, unit and what kind of measurement it is. */
export function parseMeasurementName(name: string): MeasurementName {
  const trimmed = name.trim();
  const m = UNIT_IN_NAME.exec(trimmed);
  const label = (m?.[1] ?? trimmed).trim() || trimmed;
  const unitWord = m?.[2]?.toLowerCase();
  const unit: Unit | null = unitWord === undefined ? null : unitWord.startsWith('c') ? 'cm' : 'in';
  const l = label.toLowerCase();
  const other = { name: trimmed, label, unit, kind: 'other', key: null } as const;
  if (/length|sleeve|inseam|\brise\b|height|\blong\b/.test(l)) return { ...other, kind: 'length' };
  if (/\bshoulders?\b/.test(l)) return { ...other, kind: 'body', key: 'shoulder' };
  // A width laid flat (pit to pit) is half a girth, and an under-bust is not the bust: neither compares.
  if (/width|half|flat|\bpit|under\s*-?\s*bust/.test(l)) return other;
  const key: FitKey | null = /\b(chest|bust)\b/.test(l)
    ? 'chest'
    : /\bwaist\b/.test(l)
      ? 'waist'
      : /\b(hips?|seat)\b/.test(l)
        ? 'hip'
        : /\b(neck|collar)\b/.test(l)
          ? 'neck'
          : null;
  return key ? { ...other, kind: 'body', key } : other;
}

const NUMBER = String.raw`(\d+(?:[.,]\d+)?|[.,]\d+)`;
const SINGLE = new RegExp(`^${NUMBER}$`);
const RANGE = new RegExp(`^${NUMBER}\\s*(?:-|–|—|to)\\s*${NUMBER}$`, 'i');

const toNumber = (text: string) => Number(text.replace(',', '.'));

/** A chart cell as a number or a range; null for an empty or non-numeric cell ("", "Free", "2-3 yrs"). */
export function parseChartValue(raw: string): ChartValue | null {
  const text = raw.trim();
  const single = SINGLE.exec(text);
  if (single?.[1]) {
    const n = toNumber(single[1]);
    return n > 0 ? n : null;
  }
  const range = RANGE.exec(text);
  if (range?.[1] && range[2]) {
    const lo = toNumber(range[1]);
    const hi = toNumber(range[2]);
    if (!(lo > 0) || hi < lo) return null;
    return lo === hi ? lo : [lo, hi];
  }
  return null;
}

const low = (v: ChartValue) => (typeof v === 'number' ? v : v[0]);
const high = (v: ChartValue) => (typeof v === 'number' ? v : v[1]);
const sameValue = (a: ChartValue, b: ChartValue) => low(a) === low(b) && high(a) === high(b);

/** Converts a length between units. Shown numbers are rounded by formatNumber; comparisons use this as is. */
export function convert(value: number, from: Unit, to: Unit): number {
  if (from === to) return value;
  return from === 'in' ? value * CM_PER_INCH : value / CM_PER_INCH;
}

export type ChartEntry = { size: string; value: ChartValue };

/** One column of the chart the finder compares against. */
export type ChartMeasurement = {
  key: FitKey;
  name: string;
  label: string;
  unit: Unit;
  /** The name carried no unit: read in the unit the chart's other columns carry. */
  unitFromChart: boolean;
  /** The sizes with a number, in size order. */
  entries: ChartEntry[];
  /** The sizes with no usable number in this column. */
  missing: string[];
  /** How far outside a size's number (in the chart's unit) still counts as that size. */
  tolerance: number;
};

export type SetAsideReason =
  | 'length'
  | 'not-a-body-measurement'
  | 'no-numbers'
  | 'no-unit'
  | 'not-in-size-order'
  | 'repeated';
export type SetAside = { name: string; label: string; reason: SetAsideReason };
export type FitChart = { measurements: ChartMeasurement[]; setAside: SetAside[] };

/** Measuring precision: a shopper's tape reads to about half an inch or a centimetre. */
const BASE_TOLERANCE: Record<Unit, number> = { in: 0.5, cm: 1 };

/**
 * The tolerance of a column: the measuring precision, but never more than half the smallest step between two
 * sizes with different numbers, so that no value fits two sizes that differ (except exactly halfway).
 */
function toleranceOf(entries: ChartEntry[], unit: Unit): number {
  let tolerance = BASE_TOLERANCE[unit];
  for (let i = 1; i < entries.length; i++) {
    const a = entries[i - 1]?.value;
    const b = entries[i]?.value;
    if (a === undefined || b === undefined || sameValue(a, b)) continue;
    tolerance = Math.min(tolerance, Math.max(0, low(b) - high(a)) / 2);
  }
  return tolerance;
}

/**
 * Reads a product's size chart for the finder. `sizes` is the product's sizes in the order they are shown
 * (sizes the chart names but the product does not offer are ignored; spellings compare like sizeKey).
 */
export function readFitChart(sizes: readonly string[], detail: SizeDetail): FitChart {
  const rows = sizes.map((size) => {
    const found = Object.entries(detail).find(([s]) => sizeKey(s) === sizeKey(size));
    return { size, cells: found?.[1] ?? {} };
  });
  const names = [...new Set(rows.flatMap((r) => Object.keys(r.cells)))];
  const parsed = names.map(parseMeasurementName);
  // A column without a unit is read in the chart's unit when every column that names one names the same.
  const chartUnits = new Set(parsed.flatMap((p) => (p.unit ? [p.unit] : [])));
  const chartUnit = chartUnits.size === 1 ? [...chartUnits][0] : undefined;

  const measurements: ChartMeasurement[] = [];
  const setAside: SetAside[] = [];
  for (const p of parsed) {
    const aside = (reason: SetAsideReason) => setAside.push({ name: p.name, label: p.label, reason });
    if (p.kind === 'length') aside('length');
    else if (p.kind === 'other' || p.key === null) aside('not-a-body-measurement');
    else {
      const entries: ChartEntry[] = [];
      const missing: string[] = [];
      for (const r of rows) {
        const raw = r.cells[p.name];
        const value = raw === undefined ? null : parseChartValue(raw);
        if (value === null) missing.push(r.size);
        else entries.push({ size: r.size, value });
      }
      const unit = p.unit ?? chartUnit;
      const ordered = entries.every(
        (e, i) =>
          i === 0 ||
          (low(e.value) >= low(entries[i - 1]?.value ?? 0) &&
            high(e.value) >= high(entries[i - 1]?.value ?? 0)),
      );
      if (entries.length === 0) aside('no-numbers');
      else if (unit === undefined) aside('no-unit');
      else if (!ordered) aside('not-in-size-order');
      else if (measurements.some((m) => m.key === p.key)) aside('repeated');
      else
        measurements.push({
          key: p.key,
          name: p.name,
          label: p.label,
          unit,
          unitFromChart: p.unit === null,
          entries,
          missing,
          tolerance: toleranceOf(entries, unit),
        });
    }
  }
  return { measurements, setAside };
}

/** What one measurement says about the sizes. */
export type Verdict =
  | { kind: 'fits'; entries: ChartEntry[] }
  | { kind: 'between'; smaller: ChartEntry; larger: ChartEntry }
  | { kind: 'larger-than-chart'; largest: ChartEntry }
  | { kind: 'smaller-than-chart'; smallest: ChartEntry };

/** Float noise (97 cm / 2.54) never decides a size. */
const EPSILON = 1e-9;

/**
 * Matches one value (in the column's unit) against a column: a size fits when the value lies within its number
 * or range, widened by the tolerance on both sides. No size fitting means between two sizes or outside the
 * chart.
 */
export function matchMeasurement(measurement: ChartMeasurement, value: number): Verdict {
  const { entries, tolerance } = measurement;
  const fits = entries.filter(
    (e) => value >= low(e.value) - tolerance - EPSILON && value <= high(e.value) + tolerance + EPSILON,
  );
  if (fits.length > 0) return { kind: 'fits', entries: fits };
  const first = entries[0];
  const last = entries[entries.length - 1];
  if (!first || !last) throw new Error('A chart measurement has at least one size with a number');
  if (value < low(first.value)) return { kind: 'smaller-than-chart', smallest: first };
  if (value > high(last.value)) return { kind: 'larger-than-chart', largest: last };
  const larger = entries.findIndex((e) => low(e.value) > value);
  const smaller = entries[larger - 1];
  const next = entries[larger];
  if (!smaller || !next) throw new Error('A value inside the chart that fits no size lies between two sizes');
  return { kind: 'between', smaller, larger: next };
}

/** The shopper's measurements, all in one unit, as they typed them. */
export type ShopperMeasurements = { unit: Unit; values: Partial<Record<FitKey, number>> };

export type Reading = {
  key: FitKey;
  label: string;
  /** The chart's unit, the one `value` and the verdict's numbers are in. */
  unit: Unit;
  value: number;
  /** What the shopper typed, when it was in another unit. */
  entered: { value: number; unit: Unit } | null;
  verdict: Verdict;
};

export type FitAnswer =
  /** No measurement entered that this chart has numbers for. */
  | { kind: 'nothing-to-compare' }
  /** Every measurement fits `size` (and `alsoFits`, larger sizes they fit as well). */
  | { kind: 'size'; size: string; alsoFits: string[]; readings: Reading[]; unused: string[] }
  /** Every measurement fits some size, but not the same one: `size` is the largest they point to. */
  | { kind: 'conflict'; size: string; readings: Reading[]; unused: string[] }
  /** Some measurement falls between two sizes: `sizes` are the sizes on either side, in size order. */
  | { kind: 'between'; sizes: string[]; readings: Reading[]; unused: string[] }
  /** Some measurement is smaller than the smallest size or larger than the largest: no size is offered. */
  | { kind: 'outside'; readings: Reading[]; unused: string[] };

/**
 * Recommends a size for the shopper's measurements, or says why it will not:
 * - any measurement outside the chart: 'outside', nothing offered;
 * - any measurement between two sizes: 'between', both sizes offered, neither chosen;
 * - all fit, with a size in common: that size (the smallest in common);
 * - all fit, nothing in common: 'conflict', offering the largest size any measurement points to, since a
 *   garment that is loose in one place can be altered and one that is tight cannot be worn.
 * `sizes` orders the sizes (the product's order); `unused` names the chart's measurements left empty.
 */
export function recommendSize(
  chart: FitChart,
  sizes: readonly string[],
  shopper: ShopperMeasurements,
): FitAnswer {
  const readings: Reading[] = [];
  const unused: string[] = [];
  for (const m of chart.measurements) {
    const entered = shopper.values[m.key];
    if (entered === undefined || !Number.isFinite(entered) || entered <= 0) {
      unused.push(m.label);
      continue;
    }
    const value = convert(entered, shopper.unit, m.unit);
    readings.push({
      key: m.key,
      label: m.label,
      unit: m.unit,
      value,
      entered: shopper.unit === m.unit ? null : { value: entered, unit: shopper.unit },
      verdict: matchMeasurement(m, value),
    });
  }
  if (readings.length === 0) return { kind: 'nothing-to-compare' };
  const order = (size: string) => sizes.indexOf(size);
  const inOrder = (list: Iterable<string>) => [...new Set(list)].sort((a, b) => order(a) - order(b));

  if (
    readings.some((r) => r.verdict.kind === 'larger-than-chart' || r.verdict.kind === 'smaller-than-chart')
  ) {
    return { kind: 'outside', readings, unused };
  }
  const between = readings.flatMap((r) =>
    r.verdict.kind === 'between' ? [r.verdict.smaller.size, r.verdict.larger.size] : [],
  );
  if (between.length > 0) return { kind: 'between', sizes: inOrder(between), readings, unused };

  const fitting = readings.map((r) =>
    r.verdict.kind === 'fits' ? r.verdict.entries.map((e) => e.size) : [],
  );
  const common = inOrder(fitting[0] ?? []).filter((s) => fitting.every((f) => f.includes(s)));
  const [size, ...alsoFits] = common;
  if (size !== undefined) return { kind: 'size', size, alsoFits, readings, unused };
  const largest = inOrder(fitting.map((f) => inOrder(f)[0] ?? '')).at(-1) ?? '';
  return { kind: 'conflict', size: largest, readings, unused };
}

/** A number as shown: to a tenth at most, no float noise (38.1889… → 38.2, 96.52000000001 → 96.5). */
export function formatNumber(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return String(Object.is(rounded, -0) ? 0 : rounded);
}

export function formatValue(value: ChartValue, unit: Unit): string {
  const text =
    typeof value === 'number' ? formatNumber(value) : `${formatNumber(value[0])}–${formatNumber(value[1])}`;
  return `${text} ${unit}`;
}

const sizeWith = (e: ChartEntry, unit: Unit) => `${e.size} (${formatValue(e.value, unit)})`;

/** "chest 38 in", or "chest 97 cm (38.2 in)" when the shopper measured in the other unit. */
function shopperText(r: Reading): string {
  const own = `${formatNumber(r.value)} ${r.unit}`;
  const text = r.entered ? `${formatNumber(r.entered.value)} ${r.entered.unit} (${own})` : own;
  return `${r.label.toLowerCase()} ${text}`;
}

/** One measurement's reason, e.g. "chest 38 in → M (38 in)" or "chest 39 in: between M (38 in) and L (40 in)". */
export function describeReading(r: Reading): string {
  const v = r.verdict;
  switch (v.kind) {
    case 'fits':
      return `${shopperText(r)} → ${v.entries.map((e) => sizeWith(e, r.unit)).join(' or ')}`;
    case 'between':
      return `${shopperText(r)}: between ${sizeWith(v.smaller, r.unit)} and ${sizeWith(v.larger, r.unit)}`;
    case 'larger-than-chart':
      return `${shopperText(r)}: larger than the largest size, ${sizeWith(v.largest, r.unit)}`;
    case 'smaller-than-chart':
      return `${shopperText(r)}: smaller than the smallest size, ${sizeWith(v.smallest, r.unit)}`;
  }
}

const orList = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;

/** The answer in words: a headline and the lines that give its reasons. */
export function describeAnswer(answer: FitAnswer): { headline: string; reasons: string[]; notes: string[] } {
  if (answer.kind === 'nothing-to-compare') {
    return { headline: 'Enter at least one measurement to find your size.', reasons: [], notes: [] };
  }
  const reasons = answer.readings.map(describeReading);
  const notes: string[] = [];
  if (answer.unused.length > 0) {
    notes.push(
      `Not compared, as you left them empty: ${answer.unused.map((u) => u.toLowerCase()).join(', ')}.`,
    );
  }
  switch (answer.kind) {
    case 'size':
      if (answer.alsoFits.length > 0) {
        notes.unshift(`${orList(answer.alsoFits)} would fit these measurements too.`);
      }
      return { headline: `Your size: ${answer.size}`, reasons, notes };
    case 'conflict':
      notes.unshift(
        `Your measurements point to different sizes. If you choose one, the larger, ${answer.size}, is not tight anywhere.`,
      );
      return { headline: 'Different sizes for different measurements', reasons, notes };
    case 'between':
      notes.unshift(
        'No size matches exactly: the smaller one fits closer, the larger one looser. We would rather not guess which you prefer.',
      );
      return { headline: `Between sizes: ${orList(answer.sizes)}`, reasons, notes };
    case 'outside':
      notes.unshift('No size of this product is made for that measurement, so we do not recommend one.');
      return { headline: 'Outside this size chart', reasons, notes };
  }
}

/** Measurements a person can have, per unit: anything outside is a typing or unit mistake. */
export const PLAUSIBLE: Record<FitKey, Record<Unit, readonly [number, number]>> = {
  chest: { cm: [40, 200], in: [16, 79] },
  waist: { cm: [35, 200], in: [14, 79] },
  hip: { cm: [45, 220], in: [18, 87] },
  shoulder: { cm: [20, 80], in: [8, 31] },
  neck: { cm: [20, 70], in: [8, 28] },
};

export type ShopperField = { value: number | null; error: string | null };

/**
 * Reads one field a shopper typed: empty is "not given"; a number with a point or a comma; refused with a
 * message when it is not a number, not above zero, or not a plausible measurement in the chosen unit.
 */
export function parseShopperValue(text: string, key: FitKey, label: string, unit: Unit): ShopperField {
  const trimmed = text.trim();
  if (trimmed === '') return { value: null, error: null };
  if (/^-/.test(trimmed)) return { value: null, error: 'A measurement cannot be negative.' };
  if (!SINGLE.test(trimmed)) return { value: null, error: 'Enter a number, like 38 or 38.5.' };
  const value = toNumber(trimmed);
  if (value === 0) return { value: null, error: 'Enter a measurement above zero.' };
  const [min, max] = PLAUSIBLE[key][unit];
  if (value < min || value > max) {
    return {
      value: null,
      error: `Enter a ${label.toLowerCase()} between ${min} and ${max} ${unit}. Is the unit right?`,
    };
  }
  return { value, error: null };
}

/** Measurements kept with an order line (decision 0040), as the owner reads them: "chest 96.5 cm, waist 81 cm". */
export function describeFitCm(cm: Partial<Record<FitKey, number>>): string {
  return FIT_KEYS.flatMap((key) => {
    const v = cm[key];
    return v === undefined ? [] : [`${key} ${formatNumber(v)} cm`];
  }).join(', ');
}
