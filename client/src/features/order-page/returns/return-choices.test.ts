import { describe, expect, it } from 'vitest';
import {
  checkReturnForm,
  exchangeOffers,
  firstOfferNote,
  fittedNote,
  initialReturnForm,
  optionKey,
  type ReturnableLine,
  type ReturnOptionsView,
  refundAllowed,
  withReason,
} from './return-choices';

const L = { size: 'L', colour: null, colourName: null, available: 3, differenceMinor: 50_000 };
const S = { size: 'S', colour: null, colourName: null, available: null, differenceMinor: 0 };
const XL = { size: 'XL', colour: null, colourName: null, available: 0, differenceMinor: -30_000 };

const kurta: ReturnableLine = {
  lineId: 7,
  title: 'Kurta',
  colour: null,
  size: 'M',
  returnable: 2,
  finalSale: false,
  nextSizes: { too_small: L, too_big: S },
  alternatives: [S, L, XL],
};
const scarf: ReturnableLine = {
  lineId: 8,
  title: 'Scarf',
  colour: null,
  size: null,
  returnable: 1,
  finalSale: true,
  nextSizes: { too_small: null, too_big: null },
  alternatives: [],
};

function options(refundReasons: ReturnOptionsView['settings']['refundReasons']): ReturnOptionsView {
  return {
    eligible: true,
    reasonIfNot: null,
    windowEndsAt: '2026-12-12T00:00:00.000Z',
    settings: { postagePaidBy: 'shopper', instructions: '', refundReasons },
    lines: [kurta, scarf],
  };
}
const all = options(['too_small', 'too_big', 'not_as_pictured', 'damaged', 'changed_mind', 'other']);

describe('reason → offer', () => {
  it('offers the next size first for a fit, then the other sizes in stock', () => {
    expect(exchangeOffers(kurta, 'too_small').map((o) => o.size)).toEqual(['L', 'S']);
    expect(exchangeOffers(kurta, 'too_big').map((o) => o.size)).toEqual(['S', 'L']);
    // No fit: the alternatives in their order; XL (0 left) never.
    expect(exchangeOffers(kurta, 'damaged').map((o) => o.size)).toEqual(['S', 'L']);
  });

  it('allows a refund only for the reasons the owner lets refund', () => {
    expect(refundAllowed('too_small', ['damaged'])).toBe(false);
    expect(refundAllowed('damaged', ['damaged'])).toBe(true);
    expect(refundAllowed('', ['damaged'])).toBe(false);
  });

  it('choosing a reason picks its first offer and turns a refund it forbids back into an exchange', () => {
    const start = { ...initialReturnForm(all), resolution: 'refund' as const };
    const small = withReason(start, 'too_small', options(['damaged']));
    expect(small.lines[7]?.exchange).toBe(optionKey(L));
    expect(small.resolution).toBe('exchange');
    const big = withReason(small, 'too_big', options(['damaged']));
    expect(big.lines[7]?.exchange).toBe(optionKey(S));
    const refund = withReason({ ...big, resolution: 'refund' }, 'damaged', options(['damaged']));
    expect(refund.resolution).toBe('refund');
  });
});

describe('the return form', () => {
  const chosen = (quantity: string) => {
    const v = withReason(initialReturnForm(all), 'too_small', all);
    return { ...v, lines: { ...v.lines, 7: { selected: true, quantity, exchange: optionKey(L) } } };
  };

  it('asks for an item, a reason and, for other, the text', () => {
    const { errors, request } = checkReturnForm(initialReturnForm(all), all);
    expect(request).toBeNull();
    expect(errors).toEqual({ lines: 'Choose at least one item to return.', reason: expect.any(String) });
    const other = { ...chosen('1'), reason: 'other' as const, reasonText: '  ' };
    expect(checkReturnForm(other, all).errors.reasonText).toBe('Tell us what is wrong.');
    const long = { ...other, reasonText: 'x'.repeat(501) };
    expect(checkReturnForm(long, all).errors.reasonText).toMatch(/500 characters/);
  });

  it('keeps quantities between 1 and what can still be returned', () => {
    expect(checkReturnForm(chosen('3'), all).errors['lines.7.quantity']).toBe('Enter a number from 1 to 2.');
    expect(checkReturnForm(chosen('0'), all).errors['lines.7.quantity']).toBeDefined();
    expect(checkReturnForm(chosen('1.5'), all).errors['lines.7.quantity']).toBeDefined();
    expect(checkReturnForm(chosen('2'), all).request?.lines).toEqual([
      { lineId: 7, quantity: 2, exchange: { size: 'L' } },
    ]);
  });

  it('never sends a final-sale line, even if marked', () => {
    const v = chosen('1');
    const marked = { ...v, lines: { ...v.lines, 8: { selected: true, quantity: '1', exchange: '' } } };
    expect(checkReturnForm(marked, all).request?.lines.map((l) => l.lineId)).toEqual([7]);
  });

  it('refuses a refund the reason does not allow and sends a refund without replacements', () => {
    const refund = { ...chosen('1'), resolution: 'refund' as const };
    expect(checkReturnForm(refund, options(['damaged'])).errors.resolution).toMatch(/exchange only/);
    expect(checkReturnForm(refund, all).request).toEqual({
      reason: 'too_small',
      lines: [{ lineId: 7, quantity: 1 }],
    });
  });

  it('needs a replacement in stock for an exchange', () => {
    const none: ReturnableLine = {
      ...kurta,
      nextSizes: { too_small: XL, too_big: null },
      alternatives: [XL],
    };
    const opts = { ...options(['damaged']), lines: [none] };
    const v = withReason(initialReturnForm(opts), 'too_small', opts);
    const picked = {
      ...v,
      lines: { 7: { selected: true, quantity: '1', exchange: v.lines[7]?.exchange ?? '' } },
    };
    expect(checkReturnForm(picked, opts).errors['lines.7.exchange']).toMatch(/contact the shop/);
    const refundable = { ...opts, settings: { ...opts.settings, refundReasons: ['too_small' as const] } };
    expect(checkReturnForm(picked, refundable).errors['lines.7.exchange']).toMatch(/refund instead/);
  });
});

describe('a size the fit finder measurements chose (decision 0040)', () => {
  it('says so beside it and under the choice; the next size is said as before', () => {
    const fitted = { ...XL, size: 'XL', available: 2, fitted: true };
    const line: ReturnableLine = { ...kurta, nextSizes: { too_small: fitted, too_big: S } };
    expect(fittedNote(line, 'too_small')).toBe('XL fits the measurements you gave when you ordered.');
    expect(firstOfferNote(fitted, 'too_small')).toBe(' (fits your measurements)');
    expect(fittedNote(line, 'too_big')).toBeNull();
    expect(firstOfferNote(S, 'too_big')).toBe(' (the next size down)');
    expect(fittedNote(line, 'damaged')).toBeNull();
    expect(fittedNote(kurta, 'too_small')).toBeNull();
  });
});
