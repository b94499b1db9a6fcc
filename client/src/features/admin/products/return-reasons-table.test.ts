import { describe, expect, it } from 'vitest';
import { reasonGrid, topReason } from './return-reasons-table';

const rows = [
  { size: 'M', reason: 'too_small', count: 9 },
  { size: 'M', reason: 'damaged', count: 1 },
  { size: 'L', reason: 'too_small', count: 2 },
  { size: null, reason: 'other', count: 1 },
];

describe('the product return report', () => {
  it('lays counts out by size and reason, reasons in their usual order', () => {
    const grid = reasonGrid(rows);
    expect(grid.sizes).toEqual(['M', 'L', '']);
    expect(grid.reasons).toEqual(['too_small', 'damaged', 'other']);
    expect(grid.count('M', 'too_small')).toBe(9);
    expect(grid.count('L', 'damaged')).toBe(0);
  });

  it('names the cell that stands out, out of every returned unit', () => {
    expect(topReason(rows)).toEqual({ size: 'M', reason: 'too_small', count: 9, of: 13 });
    expect(topReason([])).toBeNull();
  });
});
