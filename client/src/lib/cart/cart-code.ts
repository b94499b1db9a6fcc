import { useSyncExternalStore } from 'react';

/**
 * The discount code kept with the cart (decision 0037), and the email address a code limited per address
 * needs: in local storage like the cart, so it survives a reload and follows the shopper to checkout. Only
 * a code the server did not call unknown is kept (use-cart-quote.ts drops one it did), so a wrong code is
 * not sent again with every later quote and counted again against the shopper's address.
 * Its own file, out of cart-store.ts: only the cart panel's and the checkout page's chunks need it.
 */
export type CartCode = { code: string | null; email: string | null };

const STORAGE_KEY = 'cart:code:v1';
const NONE: CartCode = { code: null, email: null };

function read(): CartCode {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null');
    if (!raw || typeof raw !== 'object') return NONE;
    const r = raw as Record<string, unknown>;
    const text = (v: unknown, max: number) =>
      typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : null;
    return { code: text(r.code, 40), email: text(r.email, 254) };
  } catch {
    return NONE;
  }
}

let current: CartCode = typeof localStorage === 'undefined' ? NONE : read();
const listeners = new Set<() => void>();

function write(next: CartCode) {
  current = next;
  try {
    if (next.code === null && next.email === null) localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  } catch {
    // Private mode or a full quota: the code still applies in this tab.
  }
  for (const l of listeners) l();
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === STORAGE_KEY) {
      current = read();
      for (const l of listeners) l();
    }
  });
}

export const cartCode = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get: () => current,
  apply(code: string) {
    write({ ...current, code: code.trim().slice(0, 40) || null });
  },
  setEmail(email: string) {
    write({ ...current, email: email.trim().slice(0, 254) || null });
  },
  remove() {
    write({ ...current, code: null });
  },
};

export function useCartCode(): CartCode {
  return useSyncExternalStore(cartCode.subscribe, cartCode.get, () => NONE);
}

/** Roughly an address: one the server would refuse is not sent (checkout then asks for it again). */
const LOOKS_LIKE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What the quote and checkout send of the code: nothing without one. */
export function codeForRequest(c: CartCode): { code?: string; email?: string } {
  const email = c.code && c.email && LOOKS_LIKE_EMAIL.test(c.email) ? c.email : null;
  return { ...(c.code ? { code: c.code } : {}), ...(email ? { email } : {}) };
}
