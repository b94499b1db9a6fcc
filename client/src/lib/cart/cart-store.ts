import { sizeKey } from '@shared/sizes';
import { useSyncExternalStore } from 'react';

/** A cart line as the browser keeps it: only what identifies it, never a price (the server prices). */
export type CartLine = { productId: string; size: string | null; quantity: number };

const STORAGE_KEY = 'cart:v1';
/** Prices the shopper saw when adding, kept for this tab only and used only to say "the price changed". */
const SEEN_PRICES_KEY = 'cart:seen-prices:v1';
export const MAX_LINE_QUANTITY = 10;
const MAX_LINES = 50;

function readLines(): CartLine[] {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
    if (!Array.isArray(raw)) return [];
    return raw
      .filter(
        (l): l is CartLine =>
          !!l &&
          typeof l === 'object' &&
          typeof l.productId === 'string' &&
          (l.size === null || typeof l.size === 'string') &&
          Number.isInteger(l.quantity),
      )
      .reduce<CartLine[]>((merged, l) => {
        // One line per product and size as the server merges them ('m' and 'M' are one), within the limit.
        const quantity = Math.max(l.quantity, 1);
        const existing = merged.find((m) => sameLine(m, l.productId, l.size));
        if (existing) existing.quantity = Math.min(existing.quantity + quantity, MAX_LINE_QUANTITY);
        else
          merged.push({
            productId: l.productId,
            size: l.size,
            quantity: Math.min(quantity, MAX_LINE_QUANTITY),
          });
        return merged;
      }, [])
      .slice(0, MAX_LINES);
  } catch {
    return [];
  }
}

let lines: CartLine[] = typeof localStorage === 'undefined' ? [] : readLines();
const listeners = new Set<() => void>();

function emit() {
  for (const l of listeners) l();
}

function write(next: CartLine[]) {
  lines = next;
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  } catch {
    // Private mode or a full quota: the cart still works for this tab.
  }
  emit();
}

if (typeof window !== 'undefined') {
  // Another tab changed the cart: follow it.
  window.addEventListener('storage', (event) => {
    if (event.key === STORAGE_KEY) {
      lines = readLines();
      emit();
    }
  });
}

/** Whether `a` is the line of this product and size: sizes compare as the server's checkout compares them. */
function sameLine(a: CartLine, productId: string, size: string | null): boolean {
  return (
    a.productId === productId &&
    (a.size === null || size === null ? a.size === size : sizeKey(a.size) === sizeKey(size))
  );
}

function readSeenPrices(): Record<string, number> {
  try {
    const raw: unknown = JSON.parse(sessionStorage.getItem(SEEN_PRICES_KEY) ?? '{}');
    return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, number>) : {};
  } catch {
    return {};
  }
}

function rememberPrice(productId: string, priceMinor: number | undefined) {
  if (priceMinor === undefined || typeof sessionStorage === 'undefined') return;
  try {
    sessionStorage.setItem(SEEN_PRICES_KEY, JSON.stringify({ ...readSeenPrices(), [productId]: priceMinor }));
  } catch {
    // not essential
  }
}

/** What a quote request sends: the lines plus the price last shown for each product, if any. */
export function linesForQuote(current: CartLine[]) {
  const seen = typeof sessionStorage === 'undefined' ? {} : readSeenPrices();
  return current.map((l) => ({
    productId: l.productId,
    size: l.size,
    quantity: l.quantity,
    ...(typeof seen[l.productId] === 'number' ? { seenUnitPriceMinor: seen[l.productId] } : {}),
  }));
}

export const cart = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  lines: () => lines,
  add(productId: string, size: string | null, seenPriceMinor?: number) {
    rememberPrice(productId, seenPriceMinor);
    const existing = lines.find((l) => sameLine(l, productId, size));
    if (existing) {
      write(
        lines.map((l) =>
          l === existing ? { ...l, quantity: Math.min(l.quantity + 1, MAX_LINE_QUANTITY) } : l,
        ),
      );
    } else if (lines.length < MAX_LINES) {
      write([...lines, { productId, size, quantity: 1 }]);
    }
  },
  setQuantity(productId: string, size: string | null, quantity: number) {
    const q = Math.min(Math.max(Math.trunc(quantity), 1), MAX_LINE_QUANTITY);
    write(lines.map((l) => (sameLine(l, productId, size) ? { ...l, quantity: q } : l)));
  },
  remove(productId: string, size: string | null) {
    write(lines.filter((l) => !sameLine(l, productId, size)));
  },
  clear() {
    write([]);
  },
  /** The shopper has seen the new price. */
  acceptPrice(productId: string, priceMinor: number) {
    rememberPrice(productId, priceMinor);
    write([...lines]);
  },
};

export function useCartLines(): CartLine[] {
  return useSyncExternalStore(cart.subscribe, cart.lines, () => []);
}

export function useCartCount(): number {
  return useCartLines().reduce((sum, l) => sum + l.quantity, 0);
}
