import type { LineFit } from '@shared/checkout-input';
import { useState } from 'react';
import { toast } from '../toast';
import { cart } from './cart-store';
import { useCheckout } from './use-checkout';

/**
 * Add to Cart and Buy Now for one product, with one size rule: when the product has sizes, both need
 * one chosen, otherwise 'Please select a size' shows inline (missingSize) and as a toast, and nothing happens.
 * A sold-out product, or a size in soldOutSizes, is never bought: choosing such a size is ignored.
 */
export function useSizedPurchase(product: {
  id: string;
  sizes: string[];
  priceMinor: number;
  /** The colour chosen (its name), for a product with colours; its price is `priceMinor`. */
  colour?: string | null;
  /** Every size is tracked and none is left. */
  soldOut?: boolean;
  /** Sizes shown but not buyable now (a card has them only when there are some). */
  soldOutSizes?: readonly string[];
  /** The fit finder's measurements, when the shopper used it on this product: they go with the line. */
  fit?: LineFit | null;
}) {
  const [size, setSize] = useState('');
  const [missingSize, setMissingSize] = useState(false);
  const checkout = useCheckout();
  const hasSizes = product.sizes.length > 0;
  const soldOut = product.soldOut === true;
  const isSoldOut = (value: string) => soldOut || (product.soldOutSizes?.includes(value) ?? false);

  /** The size to buy (null for one-size products), or undefined when one still has to be chosen. */
  const chosenSize = (): string | null | undefined => {
    if (soldOut) {
      toast.error('Sold out');
      return undefined;
    }
    if (!hasSizes) return null;
    if (size && !isSoldOut(size)) return size;
    setMissingSize(true);
    toast.error('Please select a size');
    return undefined;
  };

  return {
    // A size that sold out while chosen no longer counts as chosen.
    size: size && !isSoldOut(size) ? size : '',
    hasSizes,
    soldOut,
    isSoldOut,
    missingSize,
    buying: checkout.isPending,
    chooseSize(value: string) {
      if (value !== '' && isSoldOut(value)) return;
      setSize(value);
      setMissingSize(false);
    },
    addToCart() {
      const chosen = chosenSize();
      if (chosen === undefined) return;
      cart.add(
        product.id,
        { colour: product.colour ?? null, size: chosen },
        product.priceMinor,
        product.fit ?? null,
      );
      toast.success('Added to cart!');
    },
    buyNow() {
      const chosen = chosenSize();
      if (chosen === undefined) return;
      checkout.mutate({
        lines: [
          {
            productId: product.id,
            ...(product.colour ? { colour: product.colour } : {}),
            size: chosen,
            quantity: 1,
            ...(product.fit ? { fit: product.fit } : {}),
          },
        ],
      });
    },
  };
}
