import { useState } from 'react';
import { toast } from '../toast';
import { cart } from './cart-store';
import { useCheckout } from './use-checkout';

/**
 * Add to Cart and Buy Now for one product, with one size rule: when the product has sizes, both need
 * one chosen, otherwise 'Please select a size' shows inline (missingSize) and as a toast, and nothing happens.
 */
export function useSizedPurchase(product: { id: string; sizes: string[]; priceMinor: number }) {
  const [size, setSize] = useState('');
  const [missingSize, setMissingSize] = useState(false);
  const checkout = useCheckout();
  const hasSizes = product.sizes.length > 0;

  /** The size to buy (null for one-size products), or undefined when one still has to be chosen. */
  const chosenSize = (): string | null | undefined => {
    if (!hasSizes) return null;
    if (size) return size;
    setMissingSize(true);
    toast.error('Please select a size');
    return undefined;
  };

  return {
    size,
    hasSizes,
    missingSize,
    buying: checkout.isPending,
    chooseSize(value: string) {
      setSize(value);
      setMissingSize(false);
    },
    addToCart() {
      const chosen = chosenSize();
      if (chosen === undefined) return;
      cart.add(product.id, chosen, product.priceMinor);
      toast.success('Added to cart!');
    },
    buyNow() {
      const chosen = chosenSize();
      if (chosen === undefined) return;
      checkout.mutate({ lines: [{ productId: product.id, size: chosen, quantity: 1 }] });
    },
  };
}
