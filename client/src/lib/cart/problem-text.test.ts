import { PROBLEM_TEXT } from '@shared/checkout';
import { describe, expect, it } from 'vitest';
import { needsColourChoice, problemText } from './problem-text';

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

describe('colour problems', () => {
  it('name the colour no longer offered, and ask for a colour when the line has none', () => {
    expect(problemText({ problem: 'colour_unavailable', left: null, colour: 'Teal' })).toBe(
      'Teal is no longer offered. Please pick another colour or remove it.',
    );
    expect(problemText({ problem: 'colour_unavailable', left: null })).toBe(PROBLEM_TEXT.colour_unavailable);
    expect(problemText({ problem: 'colour_required', left: null, colour: null })).toBe(
      'Please choose a colour for this product.',
    );
  });

  it('are the ones settled by choosing a colour on the product page', () => {
    expect(needsColourChoice('colour_required')).toBe(true);
    expect(needsColourChoice('colour_unavailable')).toBe(true);
    expect(needsColourChoice('sold_out')).toBe(false);
    expect(needsColourChoice(null)).toBe(false);
  });
});
