import type { LineFit } from '@shared/checkout-input';
import { colourSlug } from '@shared/colours';
import { sizeKey } from '@shared/sizes';
import { useSyncExternalStore } from 'react';
import { keptLineFit } from './line-fit';

/**
 * A cart line as the browser keeps it: only what identifies it, never a price (the server prices). A line is
 * one product + colour + size; `colour` is the colour's name, null (or absent, in carts kept before colours)
 * for a product without colours. `fit` is the fit finder's measurements the size was chosen with (decision
 * 0040): it goes with the order, and lines that differ only by it are one line carrying the latest.
 */
export type CartLine = {
  productId: string;
  colour?: string | null;
  size: string | null;
  quantity: number;
  fit?: LineFit;
};

/** Which line of a product: its colour and size. */
export type LineVariant = { colour?: string | null; size: string | null };

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
          (l.colour === undefined || l.colour === null || typeof l.colour === 'string') &&
          Number.isInteger(l.quantity),
      )
      .reduce<CartLine[]>((merged, l) => {
        // One line per product and size as the server merges them ('m' and 'M' are one), within the limit.
        const quantity = Math.max(l.quantity, 1);
        // Measurements this version would not send are dropped, never the line.
        const fit = keptLineFit(l.fit);
        const existing = merged.find((m) => sameLine(m, l.productId, l));
        if (existing) {
          existing.quantity = Math.min(existing.quantity + quantity, MAX_LINE_QUANTITY);
          if (fit) existing.fit = fit;
        } else
          merged.push({
            productId: l.productId,
            colour: l.colour ?? null,
            size: l.size,
            quantity: Math.min(quantity, MAX_LINE_QUANTITY),
            ...(fit ? { fit } : {}),
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

/**
 * Whether `a` is the line of this product, colour and size: sizes and colours compare as the server's
 * checkout compares them ('m' and 'M', 'Teal' and 'teal' are one).
 */
function sameLine(a: CartLine, productId: string, { colour = null, size }: LineVariant): boolean {
  const colourA = a.colour ?? null;
  return (
    a.productId === productId &&
    (a.size === null || size === null ? a.size === size : sizeKey(a.size) === sizeKey(size)) &&
    (colourA === null || colour === null ? colourA === colour : colourSlug(colourA) === colourSlug(colour))
  );
}

/** The key a price seen for a product (and colour, which may have its own price) is kept under. */
function priceKey(productId: string, colour: string | null | undefined): string {
  return colour ? `${productId}\u001f${colourSlug(colour)}` : productId;
}

function readSeenPrices(): Record<string, number> {
  try {
    const raw: unknown = JSON.parse(sessionStorage.getItem(SEEN_PRICES_KEY) ?? '{}');
    return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, number>) : {};
  } catch {
    return {};
  }
}

function rememberPrice(key: string, priceMinor: number | undefined) {
  if (priceMinor === undefined || typeof sessionStorage === 'undefined') return;
  try {
    sessionStorage.setItem(SEEN_PRICES_KEY, JSON.stringify({ ...readSeenPrices(), [key]: priceMinor }));
  } catch {
    // not essential
  }
}

/**
 * What a quote request sends: the lines plus the price last shown for each product, if any. Never the
 * measurements: a quote is a GET whose address may be logged; only placing the order sends them (linesForOrder).
 */
export function linesForQuote(current: CartLine[]) {
  const seen = typeof sessionStorage === 'undefined' ? {} : readSeenPrices();
  return current.map((l) => {
    const price = seen[priceKey(l.productId, l.colour)];
    return {
      productId: l.productId,
      ...(l.colour ? { colour: l.colour } : {}),
      size: l.size,
      quantity: l.quantity,
      ...(typeof price === 'number' ? { seenUnitPriceMinor: price } : {}),
    };
  });
}

/** What placing the order sends: the quote's lines with the measurements each was chosen with (decision 0040). */
export function linesForOrder(current: CartLine[]) {
  return linesForQuote(current).map((l, i) => {
    const fit = current[i]?.fit;
    return fit ? { ...l, fit } : l;
  });
}

export const cart = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  lines: () => lines,
  /** `fit`: the fit finder's measurements the size was chosen with; they replace the line's earlier ones. */
  add(productId: string, variant: LineVariant, seenPriceMinor?: number, fit?: LineFit | null) {
    const colour = variant.colour ?? null;
    const { size } = variant;
    rememberPrice(priceKey(productId, colour), seenPriceMinor);
    const existing = lines.find((l) => sameLine(l, productId, variant));
    if (existing) {
      write(
        lines.map((l) =>
          l === existing
            ? { ...l, quantity: Math.min(l.quantity + 1, MAX_LINE_QUANTITY), ...(fit ? { fit } : {}) }
            : l,
        ),
      );
    } else if (lines.length < MAX_LINES) {
      write([...lines, { productId, colour, size, quantity: 1, ...(fit ? { fit } : {}) }]);
    }
  },
  setQuantity(productId: string, variant: LineVariant, quantity: number) {
    const q = Math.min(Math.max(Math.trunc(quantity), 1), MAX_LINE_QUANTITY);
    write(lines.map((l) => (sameLine(l, productId, variant) ? { ...l, quantity: q } : l)));
  },
  remove(productId: string, variant: LineVariant) {
    write(lines.filter((l) => !sameLine(l, productId, variant)));
  },
  clear() {
    write([]);
  },
  /** The shopper has seen the new price. */
  acceptPrice(productId: string, colour: string | null | undefined, priceMinor: number) {
    rememberPrice(priceKey(productId, colour), priceMinor);
    write([...lines]);
  },
};

export function useCartLines(): CartLine[] {
  return useSyncExternalStore(cart.subscribe, cart.lines, () => []);
}

export function useCartCount(): number {
  return useCartLines().reduce((sum, l) => sum + l.quantity, 0);
}
