import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SizeDetail } from './catalogue.js';
import {
  type ChartMeasurement,
  convert,
  describeAnswer,
  describeReading,
  type FitAnswer,
  formatNumber,
  matchMeasurement,
  parseChartValue,
  parseMeasurementName,
  parseShopperValue,
  type Reading,
  readFitChart,
  recommendSize,
  type ShopperMeasurements,
} from './fit-finder.js';

/** The demo kurta's chart (data/demo/catalogue.json), with a waist added for the multi-measurement cases. */
const SIZES = ['S', 'M', 'L', 'XL', 'XXL'];
const KURTA: SizeDetail = {
  S: {
    'Chest (in)': '36',
    'Shoulder (in)': '14',
    'Length (in)': '44',
    'Sleeve (in)': '17',
    'Waist (in)': '30',
  },
  M: {
    'Chest (in)': '38',
    'Shoulder (in)': '14.5',
    'Length (in)': '44',
    'Sleeve (in)': '17.5',
    'Waist (in)': '32',
  },
  L: {
    'Chest (in)': '40',
    'Shoulder (in)': '15',
    'Length (in)': '44.5',
    'Sleeve (in)': '18',
    'Waist (in)': '34',
  },
  XL: {
    'Chest (in)': '42',
    'Shoulder (in)': '15.5',
    'Length (in)': '44.5',
    'Sleeve (in)': '18',
    'Waist (in)': '36',
  },
  XXL: {
    'Chest (in)': '45',
    'Shoulder (in)': '16.5',
    'Length (in)': '45',
    'Sleeve (in)': '18.5',
    'Waist (in)': '39',
  },
};
const kurta = readFitChart(SIZES, KURTA);

const answer = (
  values: ShopperMeasurements['values'],
  unit: ShopperMeasurements['unit'] = 'in',
  chart = kurta,
) => recommendSize(chart, SIZES, { unit, values });
const reasons = (a: FitAnswer) => describeAnswer(a).reasons;

describe('reading a size chart', () => {
  it('reads names into a label, a unit and a kind', () => {
    expect(parseMeasurementName('Chest (in)')).toMatchObject({
      label: 'Chest',
      unit: 'in',
      kind: 'body',
      key: 'chest',
    });
    expect(parseMeasurementName('Bust (cm)')).toMatchObject({ label: 'Bust', unit: 'cm', key: 'chest' });
    expect(parseMeasurementName('Hips [CM]')).toMatchObject({ label: 'Hips', unit: 'cm', key: 'hip' });
    expect(parseMeasurementName('Waist (inches)')).toMatchObject({
      label: 'Waist',
      unit: 'in',
      key: 'waist',
    });
    expect(parseMeasurementName('Collar (in)')).toMatchObject({ label: 'Collar', key: 'neck' });
    expect(parseMeasurementName('Shoulder (in)')).toMatchObject({ key: 'shoulder', kind: 'body' });
    expect(parseMeasurementName('Chest')).toMatchObject({ label: 'Chest', unit: null, key: 'chest' });
    for (const length of [
      'Length (in)',
      'Sleeve (in)',
      'Trouser Length (in)',
      'Inseam (cm)',
      'Choli Length (in)',
    ]) {
      expect(parseMeasurementName(length).kind).toBe('length');
    }
    for (const other of ['Age', 'Chest width (in)', 'Half chest (cm)', 'Underbust (cm)', 'Colour']) {
      expect(parseMeasurementName(other)).toMatchObject({ kind: 'other', key: null });
    }
  });

  it('reads cells into numbers or ranges, and nothing else', () => {
    expect(parseChartValue('38')).toBe(38);
    expect(parseChartValue(' 14.5 ')).toBe(14.5);
    expect(parseChartValue('14,5')).toBe(14.5);
    expect(parseChartValue('36-38')).toEqual([36, 38]);
    expect(parseChartValue('36 – 38')).toEqual([36, 38]);
    expect(parseChartValue('36—38')).toEqual([36, 38]);
    expect(parseChartValue('96 to 100')).toEqual([96, 100]);
    expect(parseChartValue('38-38')).toBe(38);
    for (const bad of ['', ' ', 'Free size', '2-3 yrs', '40-36', '0', '-3', '38"', 'NaN', '1e3']) {
      expect(parseChartValue(bad), bad).toBeNull();
    }
  });

  it('compares girths and the shoulder, and sets lengths and the rest aside with a reason', () => {
    expect(kurta.measurements.map((m) => m.key)).toEqual(['chest', 'shoulder', 'waist']);
    expect(kurta.setAside).toEqual([
      { name: 'Length (in)', label: 'Length', reason: 'length' },
      { name: 'Sleeve (in)', label: 'Sleeve', reason: 'length' },
    ]);
  });

  it('says which columns have no numbers or numbers that do not grow with the size', () => {
    const chart = readFitChart(['S', 'M'], {
      S: { Age: '2-3 yrs', 'Hip (in)': '', 'Neck (cm)': '40', 'Waist (cm)': '70' },
      M: { Age: '4-5 yrs', 'Hip (in)': 'n/a', 'Neck (cm)': '38', 'Waist (cm)': '76' },
    });
    expect(chart.measurements.map((m) => m.key)).toEqual(['waist']);
    expect(chart.setAside.map((s) => [s.name, s.reason])).toEqual([
      ['Age', 'not-a-body-measurement'],
      ['Hip (in)', 'no-numbers'],
      ['Neck (cm)', 'not-in-size-order'],
    ]);
  });

  it('reads a column without a unit in the unit of the chart, and refuses when the chart names none', () => {
    const mixed = readFitChart(['S', 'M'], { S: { Chest: '36', 'Length (in)': '40' }, M: { Chest: '38' } });
    expect(mixed.measurements[0]).toMatchObject({ key: 'chest', unit: 'in', unitFromChart: true });
    const none = readFitChart(['S', 'M'], { S: { Chest: '36' }, M: { Chest: '38' } });
    expect(none.measurements).toEqual([]);
    expect(none.setAside).toEqual([{ name: 'Chest', label: 'Chest', reason: 'no-unit' }]);
  });

  it('keeps the first of two columns for one measurement', () => {
    const chart = readFitChart(['S'], { S: { 'Chest (in)': '36', 'Bust (in)': '35' } });
    expect(chart.measurements.map((m) => m.name)).toEqual(['Chest (in)']);
    expect(chart.setAside).toEqual([{ name: 'Bust (in)', label: 'Bust', reason: 'repeated' }]);
  });

  it('follows the product sizes: their order, their spelling, and only them', () => {
    const chart = readFitChart(['S', 'M'], {
      m: { 'Chest (cm)': '96' },
      s: { 'Chest (cm)': '90' },
      XL: { 'Chest (cm)': '110' },
    });
    expect(chart.measurements[0]?.entries).toEqual([
      { size: 'S', value: 90 },
      { size: 'M', value: 96 },
    ]);
  });

  it('uses half an inch or a centimetre of tolerance, never more than half a step between sizes', () => {
    const tol = (key: string) => kurta.measurements.find((m) => m.key === key)?.tolerance;
    expect(tol('chest')).toBe(0.5);
    expect(tol('shoulder')).toBe(0.25);
    const cm = readFitChart(['S', 'M'], { S: { 'Chest (cm)': '90' }, M: { 'Chest (cm)': '95' } });
    expect(cm.measurements[0]?.tolerance).toBe(1);
    const ranges = readFitChart(['S', 'M'], { S: { 'Chest (in)': '34-36' }, M: { 'Chest (in)': '36-38' } });
    expect(ranges.measurements[0]?.tolerance).toBe(0);
  });
});

describe('recommending a size', () => {
  it('recommends the size whose number the measurement hits, and says why', () => {
    const a = answer({ chest: 38 });
    expect(a).toMatchObject({ kind: 'size', size: 'M', alsoFits: [], unused: ['Shoulder', 'Waist'] });
    expect(reasons(a)).toEqual(['chest 38 in → M (38 in)']);
    expect(describeAnswer(a).headline).toBe('Your size: M');
  });

  it('counts a measurement within the tolerance as the size', () => {
    expect(answer({ chest: 38.5 })).toMatchObject({ kind: 'size', size: 'M' });
    expect(answer({ chest: 37.5 })).toMatchObject({ kind: 'size', size: 'M' });
    expect(answer({ chest: 45.5 })).toMatchObject({ kind: 'size', size: 'XXL' });
  });

  it('says "between" instead of guessing, and names both sizes', () => {
    const a = answer({ chest: 39 });
    expect(a).toMatchObject({ kind: 'between', sizes: ['M', 'L'] });
    expect(reasons(a)).toEqual(['chest 39 in: between M (38 in) and L (40 in)']);
    expect(describeAnswer(a).headline).toBe('Between sizes: M or L');
    expect(answer({ chest: 43.5 })).toMatchObject({ kind: 'between', sizes: ['XL', 'XXL'] });
  });

  it('says when a measurement is outside the chart, at either end, and offers nothing', () => {
    const big = answer({ chest: 48 });
    expect(big).toMatchObject({ kind: 'outside' });
    expect(reasons(big)).toEqual(['chest 48 in: larger than the largest size, XXL (45 in)']);
    const small = answer({ chest: 33 });
    expect(reasons(small)).toEqual(['chest 33 in: smaller than the smallest size, S (36 in)']);
    expect(describeAnswer(small).headline).toBe('Outside this size chart');
    // One measurement outside is enough, even when another fits.
    expect(answer({ chest: 38, waist: 44 })).toMatchObject({ kind: 'outside' });
  });

  it('converts centimetres to the chart’s inches, showing rounded numbers', () => {
    const a = answer({ chest: 96.52 }, 'cm');
    expect(a).toMatchObject({ kind: 'size', size: 'M' });
    expect(reasons(a)).toEqual(['chest 96.5 cm (38 in) → M (38 in)']);
    expect(reasons(answer({ chest: 97 }, 'cm'))).toEqual(['chest 97 cm (38.2 in) → M (38 in)']);
    expect(answer({ chest: 99 }, 'cm')).toMatchObject({ kind: 'between', sizes: ['M', 'L'] });
  });

  it('converts inches to a chart in centimetres', () => {
    const cm = readFitChart(['S', 'M', 'L'], {
      S: { 'Chest (cm)': '88-92' },
      M: { 'Chest (cm)': '96-100' },
      L: { 'Chest (cm)': '104-108' },
    });
    const a = recommendSize(cm, ['S', 'M', 'L'], { unit: 'in', values: { chest: 38 } });
    expect(a).toMatchObject({ kind: 'size', size: 'M' });
    expect(reasons(a)).toEqual(['chest 38 in (96.5 cm) → M (96–100 cm)']);
  });

  it('reads ranges as every measurement from their low to their high end', () => {
    const chart = readFitChart(['S', 'M', 'L'], {
      S: { 'Waist (in)': '26-28' },
      M: { 'Waist (in)': '29–31' },
      L: { 'Waist (in)': '32-34' },
    });
    const at = (waist: number) => recommendSize(chart, ['S', 'M', 'L'], { unit: 'in', values: { waist } });
    expect(at(26)).toMatchObject({ kind: 'size', size: 'S' });
    expect(at(31)).toMatchObject({ kind: 'size', size: 'M' });
    expect(at(31.5)).toMatchObject({ kind: 'size', size: 'M', alsoFits: ['L'] });
    expect(at(33)).toMatchObject({ kind: 'size', size: 'L' });
    expect(at(35)).toMatchObject({ kind: 'outside' });
    expect(reasons(at(30))).toEqual(['waist 30 in → M (29–31 in)']);
  });

  it('leaves sizes with empty or non-numeric cells out of that measurement, and says what it compared', () => {
    const chart = readFitChart(['S', 'M', 'L'], {
      S: { 'Chest (in)': '36' },
      M: { 'Chest (in)': '' },
      L: { 'Chest (in)': 'tbc' },
    });
    expect(chart.measurements[0]?.missing).toEqual(['M', 'L']);
    const a = recommendSize(chart, ['S', 'M', 'L'], { unit: 'in', values: { chest: 39 } });
    expect(reasons(a)).toEqual(['chest 39 in: larger than the largest size, S (36 in)']);
  });

  it('offers the larger size when measurements point to different sizes, and says so', () => {
    const a = answer({ chest: 38, waist: 34 });
    expect(a).toMatchObject({ kind: 'conflict', size: 'L' });
    expect(reasons(a)).toEqual(['chest 38 in → M (38 in)', 'waist 34 in → L (34 in)']);
    expect(describeAnswer(a).notes[0]).toContain('the larger, L');
  });

  it('takes the size every measurement fits when one of them fits two', () => {
    // Shoulder 14.75 is halfway between M (14.5) and L (15): it fits both, the chest decides.
    expect(answer({ chest: 40, shoulder: 14.75 })).toMatchObject({ kind: 'size', size: 'L', alsoFits: [] });
    expect(answer({ shoulder: 14.75 })).toMatchObject({ kind: 'size', size: 'M', alsoFits: ['L'] });
  });

  it('works with a one-size chart', () => {
    const one = readFitChart(['One'], { One: { 'Chest (in)': '40' } });
    const at = (chest: number) => recommendSize(one, ['One'], { unit: 'in', values: { chest } });
    expect(one.measurements[0]?.tolerance).toBe(0.5);
    expect(at(40.5)).toMatchObject({ kind: 'size', size: 'One' });
    expect(at(42)).toMatchObject({ kind: 'outside' });
    expect(at(38)).toMatchObject({ kind: 'outside' });
  });

  it('has nothing to compare when no measurement the chart has numbers for was given', () => {
    expect(answer({})).toEqual({ kind: 'nothing-to-compare' });
    expect(answer({ hip: 40 })).toEqual({ kind: 'nothing-to-compare' });
    expect(describeAnswer({ kind: 'nothing-to-compare' }).headline).toMatch(/Enter at least one/);
  });
});

describe('the shopper’s fields', () => {
  it('accepts numbers with a point or a comma, and empty as not given', () => {
    expect(parseShopperValue('38', 'chest', 'Chest', 'in')).toEqual({ value: 38, error: null });
    expect(parseShopperValue(' 96,5 ', 'chest', 'Chest', 'cm')).toEqual({ value: 96.5, error: null });
    expect(parseShopperValue('', 'chest', 'Chest', 'in')).toEqual({ value: null, error: null });
  });

  it('refuses what is not a measurement, with a message for each', () => {
    const error = (text: string, unit: 'in' | 'cm' = 'in') =>
      parseShopperValue(text, 'chest', 'Chest', unit).error;
    expect(error('abc')).toBe('Enter a number, like 38 or 38.5.');
    expect(error('38 in')).toBe('Enter a number, like 38 or 38.5.');
    expect(error('-38')).toBe('A measurement cannot be negative.');
    expect(error('0')).toBe('Enter a measurement above zero.');
    // 96 typed with inches chosen: a unit mistake, caught.
    expect(error('96')).toBe('Enter a chest between 16 and 79 in. Is the unit right?');
    expect(error('38', 'cm')).toBe('Enter a chest between 40 and 200 cm. Is the unit right?');
  });
});

describe('properties', () => {
  const chartFrom = (steps: number[], unit: 'in' | 'cm') => {
    let v = unit === 'in' ? 30 : 80;
    const sizes = steps.map((_, i) => `S${i}`);
    const detail: SizeDetail = {};
    steps.forEach((step, i) => {
      v += step;
      detail[`S${i}`] = { [`Chest (${unit})`]: String(v) };
    });
    return { sizes, detail, chart: readFitChart(sizes, detail) };
  };
  const charts = fc
    .tuple(
      fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 8 }),
      fc.constantFrom('in' as const, 'cm' as const),
    )
    .map(([steps, unit]) => ({ ...chartFrom(steps, unit), unit }));

  it('recommends each size for its own number, in either unit', () => {
    fc.assert(
      fc.property(charts, ({ sizes, detail, chart, unit }) => {
        for (const size of sizes) {
          const chest = Number(detail[size]?.[`Chest (${unit})`]);
          expect(recommendSize(chart, sizes, { unit, values: { chest } })).toMatchObject({
            kind: 'size',
            size,
          });
          const other = unit === 'in' ? 'cm' : 'in';
          expect(
            recommendSize(chart, sizes, { unit: other, values: { chest: convert(chest, unit, other) } }),
          ).toMatchObject({ kind: 'size', size });
        }
      }),
    );
  });

  it('never recommends a smaller size for a larger measurement', () => {
    fc.assert(
      fc.property(
        charts,
        fc.double({ min: 20, max: 140, noNaN: true }),
        fc.double({ min: 0, max: 10, noNaN: true }),
        (c, a, d) => {
          const first = recommendSize(c.chart, c.sizes, { unit: c.unit, values: { chest: a } });
          const second = recommendSize(c.chart, c.sizes, { unit: c.unit, values: { chest: a + d } });
          if (first.kind === 'size' && second.kind === 'size') {
            expect(c.sizes.indexOf(second.size)).toBeGreaterThanOrEqual(c.sizes.indexOf(first.size));
          }
        },
      ),
    );
  });

  it('shows numbers with at most one decimal, whatever the conversion', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 500, noNaN: true }), (v) => {
        expect(formatNumber(convert(v, 'cm', 'in'))).toMatch(/^\d+(\.\d)?$/);
        expect(formatNumber(convert(v, 'in', 'cm'))).toMatch(/^\d+(\.\d)?$/);
      }),
    );
  });

  it('matches every value to exactly one kind of answer, naming sizes of the chart', () => {
    fc.assert(
      fc.property(charts, fc.double({ min: 1, max: 300, noNaN: true }), (c, v) => {
        const m = c.chart.measurements[0] as ChartMeasurement;
        const verdict = matchMeasurement(m, v);
        const reading: Reading = {
          key: 'chest',
          label: 'Chest',
          unit: c.unit,
          value: v,
          entered: null,
          verdict,
        };
        expect(describeReading(reading)).toMatch(/^chest /);
        if (verdict.kind === 'between') {
          expect(c.sizes.indexOf(verdict.larger.size)).toBe(c.sizes.indexOf(verdict.smaller.size) + 1);
        }
      }),
    );
  });
});
