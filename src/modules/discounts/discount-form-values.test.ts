import { describe, expect, it } from 'vitest';
import { discountInput, emptyDiscountForm } from '../../shared/discount-input.js';
import { toFormValues, toWrite } from './discount-form-values.js';

const form = {
  ...emptyDiscountForm('pkr'),
  kind: 'code',
  name: 'Eid',
  code: 'EID10',
  valueType: 'fixed',
  amount: '500',
  startsAt: '2026-11-23T00:00',
  endsAt: '2026-11-30T00:00',
  minOrder: '2500.50',
  maxUses: '50',
};
const fields = discountInput.parse(form);

describe('between the form and the stored discount', () => {
  it('makes the times instants in the zone and the amounts minor units, and back', () => {
    const write = toWrite(fields, 'Asia/Karachi');
    expect(write).toMatchObject({
      startsAt: '2026-11-22T19:00:00.000Z',
      endsAt: '2026-11-29T19:00:00.000Z',
      value: { type: 'fixed', amountMinor: 50000, currency: 'pkr' },
      minOrderMinor: 250050,
      maxUses: 50,
      maxUsesPerEmail: null,
    });
    if ('badField' in write) throw new Error('refused');
    const back = toFormValues(
      { ...write, id: 'd1', endedAt: null, uses: 0, createdAt: '' },
      'Asia/Karachi',
      'usd',
    );
    expect(back).toMatchObject({
      startsAt: '2026-11-23T00:00',
      endsAt: '2026-11-30T00:00',
      amount: '500.00',
      currency: 'pkr',
      minOrder: '2500.50',
      maxUses: '50',
      maxUsesPerEmail: '',
      scopeKind: 'all',
    });
  });

  it("keeps the currency of a percentage code's minimum, whatever the shop's first currency", () => {
    const percent = discountInput.parse({ ...form, valueType: 'percent', percent: '10', amount: '' });
    const write = toWrite(percent, 'Asia/Karachi');
    if ('badField' in write) throw new Error('refused');
    expect(write).toMatchObject({ minOrderMinor: 250050, minOrderCurrency: 'pkr' });
    const back = toFormValues(
      { ...write, id: 'd2', endedAt: null, uses: 0, createdAt: '' },
      'Asia/Karachi',
      'usd',
    );
    expect(back).toMatchObject({ currency: 'pkr', minOrder: '2500.50', percent: '10' });
  });

  it('names the field when a time is none in the zone', () => {
    expect(toWrite(fields, 'Nowhere/Else')).toEqual({ badField: 'startsAt' });
  });
});
