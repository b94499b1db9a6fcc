import type { Db } from '../db/database.js';
import { writePaymentMethods } from '../modules/settings/payment-method-settings.js';
import { DEFAULT_PAYMENT_METHODS, type PaymentMethodSettings } from '../shared/payment-methods.js';
import { insertProducts } from './fixtures.js';

/** Rs 2,500.00 a kurta, in rupees, with 5 of size M in stock; a dollar dupatta beside it. */
export async function insertOfflineShop(db: Db, settings: Partial<PaymentMethodSettings> = {}) {
  await insertProducts(db, [
    { id: 'k1', title: 'Mint Lawn Kurta', price_minor: 250000, currency: 'pkr' },
    { id: 'd1', title: 'Silk Dupatta', price_minor: 3000, currency: 'usd' },
  ]);
  await db.insertInto('size_stock').values({ product_id: 'k1', size: 'M', on_hand: 5 }).execute();
  await db
    .updateTable('settings')
    .set({
      shipping_countries: JSON.stringify(['PK', 'GB']),
      shipping_options: JSON.stringify([
        { label: 'Courier', amountMinor: 15000, currency: 'pkr', minDays: 2, maxDays: 4 },
        { label: 'Standard', amountMinor: 900, currency: 'usd', minDays: 5, maxDays: 10 },
      ]),
    })
    .where('id', '=', 1)
    .execute();
  await writePaymentMethods(db, offlineSettings(settings), new Date('2026-11-01T00:00:00.000Z'));
}

/** Card, cash on delivery (PK, pkr, fee Rs 200, up to Rs 10,000) and bank transfer (PK) all on. */
export function offlineSettings(over: Partial<PaymentMethodSettings> = {}): PaymentMethodSettings {
  return {
    ...DEFAULT_PAYMENT_METHODS,
    card: { enabled: true, countries: [] },
    cashOnDelivery: {
      enabled: true,
      countries: ['PK'],
      currency: 'pkr',
      feeMinor: 20000,
      maxOrderMinor: 1_000_000,
      confirmHours: 24,
    },
    bankTransfer: {
      enabled: true,
      countries: ['PK'],
      accountDetails: 'Meezan Bank · Noor Textiles · PK36MEZN0000001234567890',
      holdDays: 3,
    },
    ...over,
  };
}

/** A shopper in Lahore, as the store's own form collects them. */
export const lahoreShopper = {
  email: 'ayesha@example.com',
  name: 'Ayesha Khan',
  phone: '0300 1234567',
  address: { line1: '12 Canal Road', city: 'Lahore', postalCode: '54000', country: 'PK' },
};

export const twoKurtas = [{ productId: 'k1', size: 'M', quantity: 2 }];
