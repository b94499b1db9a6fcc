import { formatMoney } from '@shared/money';
import { describe, expect, it } from 'vitest';
import {
  lineDifferenceText,
  offerDifferenceText,
  pricedDifferenceNote,
  type ReturnDifference,
  returnDifferenceText,
} from './return-difference';

const rs = (minor: number) => formatMoney(minor, 'pkr');
const usd = (minor: number) => formatMoney(minor, 'usd');

describe('the price difference beside an offered replacement', () => {
  it('says what is to pay, what comes back, and nothing for the same price', () => {
    expect(offerDifferenceText(50_000, 'pkr')).toBe(`+${rs(50_000)} to pay`);
    expect(offerDifferenceText(-30_000, 'pkr')).toBe(`${rs(30_000)} back`);
    expect(offerDifferenceText(0, 'pkr')).toBe('');
    // Never a minus sign before the amount given back.
    expect(offerDifferenceText(-30_000, 'pkr')).not.toContain('-');
  });

  it('explains the chosen one as regular prices per item', () => {
    expect(pricedDifferenceNote(50_000, 'pkr')).toBe(
      `At regular prices each costs ${rs(50_000)} more: you pay the difference.`,
    );
    expect(pricedDifferenceNote(-30_000, 'pkr')).toMatch(/costs .* less: the shop pays you the difference/);
    expect(pricedDifferenceNote(0, 'pkr')).toBeNull();
  });

  it('says a line total as more or less', () => {
    expect(lineDifferenceText(100_000, 'pkr')).toBe(` (${rs(100_000)} more)`);
    expect(lineDifferenceText(-1, 'usd')).toBe(` (${formatMoney(1, 'usd')} less)`);
    expect(lineDifferenceText(0, 'usd')).toBe('');
  });
});

describe("a return's difference on the order page", () => {
  const due = (canPay: boolean): ReturnDifference => ({ amountMinor: 50_000, status: 'due', canPay });
  const card = { returnStatus: 'approved' as const, paymentMethod: 'card' as const, currency: 'pkr' };

  it('says the amount due, and how it is paid when the page cannot take it', () => {
    expect(returnDifferenceText(due(true), card)).toEqual({
      summary: `Price difference: ${rs(50_000)} to pay.`,
      hint: null,
    });
    expect(returnDifferenceText(due(false), { ...card, returnStatus: 'requested' }).hint).toBe(
      'You can pay it here once the shop approves your return.',
    );
    expect(returnDifferenceText(due(false), { ...card, paymentMethod: 'cash_on_delivery' }).hint).toBe(
      'You pay it to the courier with your replacement.',
    );
    expect(returnDifferenceText(due(false), { ...card, paymentMethod: 'bank_transfer' }).hint).toBe(
      'The shop will tell you how to pay it.',
    );
    expect(returnDifferenceText(due(false), { ...card, returnStatus: 'cancelled' }).hint).toBeNull();
  });

  it('says each later status, the amount always positive', () => {
    const text = (status: ReturnDifference['status'], amountMinor: number) =>
      returnDifferenceText({ amountMinor, status, canPay: false }, card).summary;
    expect(text('paid', 50_000)).toBe(`Price difference: ${rs(50_000)}, paid.`);
    expect(text('collect_on_delivery', 50_000)).toMatch(/to pay the courier/);
    expect(text('to_refund', -30_000)).toBe(`Price difference: ${rs(30_000)} back to you.`);
    expect(text('refunded', -30_000)).toBe(`Price difference: ${rs(30_000)}, paid back to you.`);
  });

  it('says a paid difference goes back, and a due one is owed no more, once the exchange ended', () => {
    const ended = (status: ReturnDifference['status'], returnStatus: 'declined' | 'cancelled') =>
      returnDifferenceText(
        { amountMinor: 1500, status, canPay: false },
        { ...card, returnStatus, currency: 'usd' },
      );
    expect(ended('to_refund', 'cancelled')).toEqual({
      summary: `The ${usd(1500)} you paid will be refunded.`,
      hint: null,
    });
    expect(ended('to_refund', 'declined').summary).toBe(`The ${usd(1500)} you paid will be refunded.`);
    expect(ended('refunded', 'declined').summary).toBe(`The ${usd(1500)} you paid was refunded to you.`);
    expect(ended('due', 'cancelled')).toEqual({
      summary: `Price difference: ${usd(1500)}, nothing to pay now.`,
      hint: null,
    });
    // While the exchange goes on, a difference to give back is the shop's to send with the replacement.
    expect(
      returnDifferenceText({ amountMinor: -800, status: 'to_refund', canPay: false }, card).hint,
    ).toMatch(/when it sends your replacement/);
  });
});
