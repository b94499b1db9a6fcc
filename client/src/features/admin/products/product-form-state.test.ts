import { describe, expect, it } from 'vitest';
import { serverFieldErrors, zodFieldErrors } from '../../../lib/use-zod-form';
import { emptyForm } from './product-form';
import {
  type ColourDraft,
  colourDrafts,
  emptyColour,
  moved,
  productFormCheck,
  toFieldsInput,
} from './product-form-state';

const colour = (over: Partial<ColourDraft>): ColourDraft => ({ ...emptyColour(), ...over });
const form = (colors: ColourDraft[]) => ({
  ...emptyForm('plink_abcdefgh12345678'),
  title: 'Kurta',
  description: 'Lawn',
  price: '10.00',
  colors,
});

describe('the product form with colours', () => {
  it('sends each colour with its own stock keyed by its tidy name, and its chart only when cut differently', () => {
    const input = toFieldsInput(
      form([
        colour({ name: ' Teal ', hex: '#1f7a6d', stock: { M: 1 }, images: ['/a.webp', '/gone.webp'] }),
        colour({ name: 'Maroon', ownChart: false, sizeDetail: { M: { Chest: '40' } }, stock: {} }),
      ]),
      new Set(['/a.webp']),
    );
    expect(input.colors).toEqual([
      { name: 'Teal', hex: '#1f7a6d', skuSuffix: '', price: '', images: ['/a.webp'], sizeDetail: null },
      { name: 'Maroon', hex: '', skuSuffix: '', price: '', images: [], sizeDetail: null },
    ]);
    expect(input.colourStock).toEqual({ Teal: { M: 1 } });
  });

  it('reads a saved product back into drafts with their stock', () => {
    const [teal] = colourDrafts(
      [
        {
          name: 'Teal',
          hex: null,
          skuSuffix: null,
          price: '95.00',
          images: [],
          sizeDetail: { M: { Chest: '40' } },
        },
      ],
      { Teal: { M: 2 } },
    );
    expect(teal).toMatchObject({ name: 'Teal', hex: '', price: '95.00', ownChart: true, stock: { M: 2 } });
  });

  it('names each wrong box at its own row, a blank colour included, without moving the others', () => {
    const result = productFormCheck.safeParse(
      form([
        colour({ name: '' }),
        colour({ name: 'Teal', price: '-1', stock: { M: -2 } }),
        colour({ name: ' teal' }),
      ]),
    );
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(zodFieldErrors(result.error.issues)).toMatchObject({
      'colors.0.name': 'Name this colour, or remove it',
      'colors.1.price': 'Enter a price of 0 or more, like 49.99',
      'colors.2.name': '"teal" is the same colour as "Teal"',
      'colourStock.Teal.M': 'Stock cannot be negative',
    });
  });

  it("reads the server's errors at their paths inside the input", () => {
    const data = {
      code: 'BAD_REQUEST',
      zodError: {
        formErrors: [],
        fieldErrors: { fields: ['x'] },
        paths: { 'fields.colors.2.images': 'Not this product’s photo', id: 'Bad id' },
      },
    };
    expect(serverFieldErrors(data, 'fields')).toEqual({ 'colors.2.images': 'Not this product’s photo' });
    // Without paths (an older server) the flattened errors stand.
    expect(serverFieldErrors({ zodError: { fieldErrors: { sku: ['Taken'] } } }, 'fields')).toEqual({
      sku: 'Taken',
    });
  });

  it('moves a colour', () => {
    expect(moved(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'c', 'b']);
  });
});
