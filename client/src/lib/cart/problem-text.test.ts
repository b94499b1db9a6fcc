import { PROBLEM_TEXT } from '@shared/checkout';
import { describe, expect, it } from 'vitest';
import { problemText } from './problem-text';

describe('problemText', () => {
  it('says how many are left when there are too few', () => {
    expect(problemText({ problem: 'not_enough_stock', left: 2 })).toBe(
      'Only 2 left in this size. Please lower the quantity.',
    );
  });

  it('falls back to the shared text when the count is unknown or none is left', () => {
    expect(problemText({ problem: 'not_enough_stock', left: null })).toBe(PROBLEM_TEXT.not_enough_stock);
    expect(problemText({ problem: 'not_enough_stock', left: 0 })).toBe(PROBLEM_TEXT.not_enough_stock);
  });

  it('uses the shared text for other problems', () => {
    expect(problemText({ problem: 'sold_out', left: 0 })).toBe(PROBLEM_TEXT.sold_out);
    expect(problemText({ problem: 'removed', left: null })).toBe(PROBLEM_TEXT.removed);
  });
});
