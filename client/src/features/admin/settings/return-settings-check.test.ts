import { DEFAULT_RETURN_SETTINGS } from '@shared/returns';
import { describe, expect, it } from 'vitest';
import { zodFieldErrors } from '../../../lib/use-zod-form';
import { returnSettingsCheck } from './return-settings-check';

const errorsOf = (values: unknown) => {
  const result = returnSettingsCheck.safeParse(values);
  return result.success ? {} : zodFieldErrors(result.error.issues);
};

describe('the return settings form', () => {
  it('takes the defaults and a window of 0 (online returns off)', () => {
    expect(errorsOf(DEFAULT_RETURN_SETTINGS)).toEqual({});
    expect(errorsOf({ ...DEFAULT_RETURN_SETTINGS, windowDays: 0, refundReasons: [] })).toEqual({});
  });

  it('names a window out of range or emptied (NaN) in words', () => {
    const message = 'Enter a whole number from 0 to 365';
    expect(errorsOf({ ...DEFAULT_RETURN_SETTINGS, windowDays: 366 })).toEqual({ windowDays: message });
    expect(errorsOf({ ...DEFAULT_RETURN_SETTINGS, windowDays: 1.5 })).toEqual({ windowDays: message });
    expect(errorsOf({ ...DEFAULT_RETURN_SETTINGS, windowDays: Number.NaN })).toEqual({ windowDays: message });
  });

  it('bounds the instructions and the final-sale tags', () => {
    expect(errorsOf({ ...DEFAULT_RETURN_SETTINGS, instructions: 'x'.repeat(2001) })).toEqual({
      instructions: 'At most 2000 characters',
    });
    const tags = Array.from({ length: 51 }, (_, i) => `t${i}`);
    expect(errorsOf({ ...DEFAULT_RETURN_SETTINGS, finalSaleTags: tags })).toEqual({
      finalSaleTags: 'At most 50 tags',
    });
  });
});
