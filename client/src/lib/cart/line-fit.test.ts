import { lineFitInput } from '@shared/checkout-input';
import { describe, expect, it } from 'vitest';
import { keptLineFit } from './line-fit';

const samples: unknown[] = [
  { cm: { chest: 96.5 } },
  { cm: { chest: 96.5, waist: 81, hip: 100, shoulder: 40, neck: 38 } },
  { cm: { chest: 1 } },
  { cm: { chest: 400 } },
  { cm: { chest: 0.99 } },
  { cm: { chest: 400.01 } },
  { cm: { chest: Number.NaN } },
  { cm: { chest: Number.POSITIVE_INFINITY } },
  { cm: { chest: -5 } },
  { cm: { chest: '96' } },
  { cm: { chest: null } },
  { cm: { chest: undefined, waist: 80 } },
  { cm: { height: 170 } },
  { cm: { chest: 96, height: 170 } },
  { cm: {} },
  { cm: [] },
  { cm: null },
  { cm: { chest: 96 }, extra: true },
  {},
  [],
  null,
  undefined,
  'chest 96',
  96,
  // What a kept cart can hold is what JSON.parse makes: its __proto__ is an own key.
  { cm: JSON.parse('{"__proto__": {"chest": 96}}') },
];

describe('keptLineFit', () => {
  it('takes exactly what checkout’s schema takes, and gives back the same measurements', () => {
    for (const sample of samples) {
      const schema = lineFitInput.safeParse(sample);
      const kept = keptLineFit(sample);
      expect(kept === undefined, JSON.stringify(sample) ?? String(sample)).toBe(!schema.success);
      if (schema.success) expect(kept).toEqual(schema.data);
    }
  });
});
