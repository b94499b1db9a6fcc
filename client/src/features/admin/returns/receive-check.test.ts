import { describe, expect, it } from 'vitest';
import { checkReceive } from './receive-check';

const lines = [
  { lineId: 1, quantity: 2 },
  { lineId: 2, quantity: 1 },
];

describe('the receive form', () => {
  it('sends each line with what goes back on the shelf', () => {
    expect(checkReceive({ condition: ' worn once ', restock: { 1: '2', 2: '0' } }, lines)).toEqual({
      errors: {},
      input: {
        condition: 'worn once',
        restock: [
          { lineId: 1, quantity: 2 },
          { lineId: 2, quantity: 0 },
        ],
      },
    });
  });

  it('never restocks more than came back, nor a part or a negative unit', () => {
    const { errors, input } = checkReceive({ condition: '', restock: { 1: '3', 2: '-1' } }, lines);
    expect(input).toBeNull();
    expect(errors).toEqual({
      'restock.1': 'Enter a whole number from 0 to 2.',
      'restock.2': 'Enter a whole number from 0 to 1.',
    });
    expect(checkReceive({ condition: '', restock: { 1: '1.5', 2: '' } }, lines).errors).toHaveProperty(
      'restock.1',
    );
  });

  it('bounds the condition note', () => {
    const long = checkReceive({ condition: 'x'.repeat(1001), restock: { 1: '0', 2: '0' } }, lines);
    expect(long.errors.condition).toMatch(/1000 characters/);
  });
});
