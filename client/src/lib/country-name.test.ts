import { describe, expect, it } from 'vitest';
import { countryName } from './country-name';
import { paths } from './paths';

describe('countryName', () => {
  it('names the countries the store ships to, whatever the case of the code', () => {
    expect(countryName('PK')).toBe('Pakistan');
    expect(countryName('gb')).toBe('United Kingdom');
  });

  it('keeps a code it cannot name rather than failing', () => {
    expect(countryName('Z')).toBe('Z');
  });
});

describe('paths.adminOrdersExport', () => {
  it('puts the range in the query string', () => {
    expect(paths.adminOrdersExport({ from: '2026-11-01', to: '2026-11-25' })).toBe(
      '/api/admin/orders/export.csv?from=2026-11-01&to=2026-11-25',
    );
  });
});
