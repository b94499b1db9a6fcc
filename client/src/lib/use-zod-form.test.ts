import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorAt, serverFieldErrors, zodFieldErrors } from './use-zod-form';

const schema = z.object({
  title: z.string().min(1, 'Title is required').max(5, 'Too long'),
  options: z.array(z.object({ amount: z.string().regex(/^\d+$/, 'Enter an amount') })),
});

describe('the Zod form mapping', () => {
  it('keeps the first message per dotted path', () => {
    const result = schema.safeParse({ title: '', options: [{ amount: '1' }, { amount: 'x' }] });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(zodFieldErrors(result.error.issues)).toEqual({
      title: 'Title is required',
      'options.1.amount': 'Enter an amount',
    });
  });

  it('answers for a field with the error of anything inside it', () => {
    const errors = { 'options.1.amount': 'Enter an amount' };
    expect(errorAt(errors, 'options')).toBe('Enter an amount');
    expect(errorAt(errors, 'option')).toBeUndefined();
    expect(errorAt({ title: 'x' }, 'title')).toBe('x');
  });

  it("reads the server's flattened field errors and ignores any other failure", () => {
    const data = {
      code: 'BAD_REQUEST',
      zodError: { formErrors: [], fieldErrors: { sku: ['Taken', 'Other'], price: [] } },
    };
    expect(serverFieldErrors(data)).toEqual({ sku: 'Taken' });
    expect(serverFieldErrors({ code: 'CONFLICT', zodError: null })).toEqual({});
    expect(serverFieldErrors(null)).toEqual({});
  });
});
