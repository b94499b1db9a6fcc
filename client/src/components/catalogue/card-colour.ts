import type { ProductCard } from '@shared/catalogue';
import { colourSlug } from '@shared/colours';

/** Where a card leads: the product, in the colour the card was found by. */
export function cardHref(productPath: string, product: Pick<ProductCard, 'colour'>): string {
  return product.colour
    ? `${productPath}?colour=${encodeURIComponent(colourSlug(product.colour))}`
    : productPath;
}
