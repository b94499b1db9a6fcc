import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  clearMeasurements,
  FIT_STORAGE_KEY,
  fieldText,
  fitForLine,
  readMeasurements,
  saveMeasurements,
} from './fit-measurements';

function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (k) => map.get(k) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (k) => {
      map.delete(k);
    },
    setItem: (k, v) => {
      map.set(k, String(v));
    },
  };
}

beforeEach(() => {
  vi.stubGlobal('localStorage', memoryStorage());
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('remembered measurements', () => {
  it('keeps them in centimetres and shows them back as typed', () => {
    saveMeasurements('in', ['chest', 'waist'], { chest: 38, waist: 32.25 });
    const stored = readMeasurements();
    expect(stored?.unit).toBe('in');
    expect(stored?.cm.chest).toBeCloseTo(96.52, 10);
    expect(fieldText(stored?.cm.chest, 'in')).toBe('38');
    expect(fieldText(stored?.cm.waist, 'in')).toBe('32.25');
    expect(fieldText(stored?.cm.chest, 'cm')).toBe('96.52');
    expect(fieldText(undefined, 'cm')).toBe('');
  });

  it("keeps another product's measurements and forgets this product's emptied ones", () => {
    saveMeasurements('cm', ['chest', 'waist'], { chest: 96, waist: 80 });
    saveMeasurements('cm', ['chest', 'shoulder'], { shoulder: 40 });
    expect(readMeasurements()).toEqual({ unit: 'cm', cm: { waist: 80, shoulder: 40 } });
  });

  it('are gone once cleared', () => {
    saveMeasurements('cm', ['chest'], { chest: 96 });
    clearMeasurements();
    expect(localStorage.getItem(FIT_STORAGE_KEY)).toBeNull();
    expect(readMeasurements()).toBeNull();
  });

  it('ignores what it did not write', () => {
    for (const raw of ['not json', '[]', '{"unit":"ft","cm":{}}', '{"unit":"cm"}']) {
      localStorage.setItem(FIT_STORAGE_KEY, raw);
      expect(readMeasurements(), raw).toBeNull();
    }
    localStorage.setItem(FIT_STORAGE_KEY, '{"unit":"cm","cm":{"chest":"96","waist":-1,"hip":100,"foot":20}}');
    expect(readMeasurements()).toEqual({ unit: 'cm', cm: { hip: 100 } });
  });
});

describe('the measurements a cart line carries', () => {
  it("are the chart's own, in centimetres, and none when none was given", () => {
    const fit = fitForLine('in', ['chest', 'waist'], { chest: 38, waist: 32, hip: 40 });
    expect(fit?.cm.chest).toBeCloseTo(96.52, 10);
    expect(fit?.cm.waist).toBeCloseTo(81.28, 10);
    expect(fit?.cm).not.toHaveProperty('hip');
    expect(fitForLine('cm', ['chest'], { chest: 97 })).toEqual({ cm: { chest: 97 } });
    expect(fitForLine('cm', ['chest'], {})).toBeNull();
  });
});
