import { z } from 'zod';
import type { PostalAddress } from '../../shared/orders.js';

const text = z.string().trim().min(1).max(300);
const optional = z.string().trim().max(300).nullish();

/** Stripe's shipping details ({ name, address: { line1, postal_code, ... } }), which the demo form writes too. */
const stripeShipping = z.object({
  name: optional,
  address: z.object({
    line1: text,
    line2: optional,
    city: text,
    state: optional,
    // Optional: many addresses in Pakistan have none, and the store's own form (decision 0038) allows that.
    postal_code: optional,
    country: text,
  }),
});

/** The stored shipping address as the store shows it; null when there is none or it cannot be read. */
export function postalAddressOf(json: string | null): PostalAddress | null {
  if (!json) return null;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  const parsed = stripeShipping.safeParse(value);
  if (!parsed.success) return null;
  const { name, address } = parsed.data;
  return {
    name: name || null,
    line1: address.line1,
    line2: address.line2 || null,
    city: address.city,
    state: address.state || null,
    postalCode: address.postal_code ?? '',
    country: address.country,
  };
}

/** The demo form's address, stored in Stripe's shape so both read alike afterwards. */
export function stripeShippingOf(name: string, address: Omit<PostalAddress, 'name' | 'state'>) {
  return {
    name,
    address: {
      line1: address.line1,
      line2: address.line2,
      city: address.city,
      state: null,
      postal_code: address.postalCode,
      country: address.country,
    },
  };
}
