import { sql } from 'kysely';
import { z } from 'zod';
import type { DbOrTx } from '../../db/database.js';
import { parseJsonArray } from '../../db/json-columns.js';
import type { settingsInput } from '../../shared/settings-input.js';
import type { Credit, SiteSettings, VersionRecord } from '../../shared/site.js';
import { isTimeZone } from '../../shared/zoned-time.js';

/**
 * The store's settings: one row (id 1) that every read and write goes through here. Lists are stored as
 * JSON text and checked again on the way out, so a row written by an older version cannot break a page.
 */

/** Settings as the admin form writes them (money in minor units, empty texts as null). */
export type StoredSettings = z.output<typeof settingsInput>;

export type ShippingOption = StoredSettings['shippingOptions'][number];

const creditsSchema = z.array(z.object({ role: z.string(), name: z.string() })).catch([]);

function parseCredits(text: string): Credit[] {
  try {
    return creditsSchema.parse(JSON.parse(text));
  } catch {
    return [];
  }
}

export async function latestVersion(db: DbOrTx): Promise<VersionRecord | null> {
  const row = await db
    .selectFrom('version_info')
    .select(['version', 'environment', 'notes', 'updated_at'])
    .where('environment', '=', 'production')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row
    ? { version: row.version, environment: row.environment, notes: row.notes, updatedAt: row.updated_at }
    : null;
}

export async function readSiteSettings(db: DbOrTx): Promise<SiteSettings> {
  const row = await db
    .selectFrom('settings')
    .select([
      'store_name',
      'tagline',
      'about_text',
      'disclaimer',
      'credits',
      'special_order_url',
      'contact_url',
      'banner_title',
      'banner_description',
      'banner_image_url',
      'banner_active',
    ])
    .where('id', '=', 1)
    .executeTakeFirst();
  const version = await latestVersion(db);
  if (!row) {
    return {
      storeName: 'My Store',
      tagline: '',
      aboutText: '',
      disclaimer: '',
      credits: [],
      specialOrderUrl: null,
      contactUrl: null,
      banner: null,
      version,
    };
  }
  return {
    storeName: row.store_name,
    tagline: row.tagline,
    aboutText: row.about_text,
    disclaimer: row.disclaimer,
    credits: parseCredits(row.credits),
    specialOrderUrl: row.special_order_url,
    contactUrl: row.contact_url,
    banner: row.banner_title
      ? {
          title: row.banner_title,
          description: row.banner_description,
          imageUrl: row.banner_image_url,
          active: row.banner_active === 1,
        }
      : null,
    version,
  };
}

export async function randomQuote(db: DbOrTx): Promise<{ quote: string; author: string } | null> {
  const row = await db
    .selectFrom('funny_quotes')
    .select(['quote', 'author'])
    .orderBy(sql`random()`)
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}

const shippingOptionsSchema = z
  .array(
    z.object({
      label: z.string(),
      amountMinor: z.number().int().nonnegative().refine(Number.isSafeInteger),
      currency: z.string(),
      minDays: z.number().int().nullable().catch(null),
      maxDays: z.number().int().nullable().catch(null),
    }),
  )
  .catch([]);

function parseShippingOptions(text: string): ShippingOption[] {
  try {
    return shippingOptionsSchema.parse(JSON.parse(text));
  } catch {
    return [];
  }
}

/** Where the store ships and for how much: what a checkout session offers. */
export async function readShipping(db: DbOrTx): Promise<{ countries: string[]; options: ShippingOption[] }> {
  const row = await db
    .selectFrom('settings')
    .select(['shipping_countries', 'shipping_options'])
    .where('id', '=', 1)
    .executeTakeFirst();
  return {
    countries: parseJsonArray(row?.shipping_countries ?? '[]').filter((c) => /^[A-Z]{2}$/.test(c)),
    options: parseShippingOptions(row?.shipping_options ?? '[]'),
  };
}

/** Everything the admin's settings form edits, as stored. */
export async function readStoredSettings(db: DbOrTx): Promise<StoredSettings> {
  const site = await readSiteSettings(db);
  const row = await db
    .selectFrom('settings')
    .select([
      'banner_title',
      'banner_description',
      'banner_image_url',
      'banner_active',
      'contact_email',
      'low_stock_threshold',
      'time_zone',
      'stripe_promotion_codes',
    ])
    .where('id', '=', 1)
    .executeTakeFirst();
  const shipping = await readShipping(db);
  return {
    storeName: site.storeName,
    tagline: site.tagline,
    aboutText: site.aboutText,
    disclaimer: site.disclaimer,
    credits: site.credits,
    specialOrderUrl: site.specialOrderUrl,
    contactUrl: site.contactUrl,
    contactEmail: row?.contact_email ?? null,
    bannerTitle: row?.banner_title ?? null,
    bannerDescription: row?.banner_description ?? null,
    bannerImageUrl: row?.banner_image_url ?? null,
    bannerActive: row?.banner_active === 1,
    shippingCountries: shipping.countries,
    shippingOptions: shipping.options,
    lowStockThreshold: row?.low_stock_threshold ?? 2,
    timeZone: row?.time_zone ?? 'UTC',
    stripePromotionCodes: Number(row?.stripe_promotion_codes ?? 0) === 1,
  };
}

/** Writes the given settings; those left out keep their value. */
export async function updateSettings(db: DbOrTx, patch: Partial<StoredSettings>, now: Date): Promise<void> {
  await db
    .updateTable('settings')
    .set({
      store_name: patch.storeName,
      tagline: patch.tagline,
      about_text: patch.aboutText,
      disclaimer: patch.disclaimer,
      credits: patch.credits && JSON.stringify(patch.credits),
      special_order_url: patch.specialOrderUrl,
      contact_url: patch.contactUrl,
      contact_email: patch.contactEmail,
      banner_title: patch.bannerTitle,
      banner_description: patch.bannerDescription,
      banner_image_url: patch.bannerImageUrl,
      banner_active: patch.bannerActive === undefined ? undefined : patch.bannerActive ? 1 : 0,
      shipping_countries: patch.shippingCountries && JSON.stringify(patch.shippingCountries),
      shipping_options: patch.shippingOptions && JSON.stringify(patch.shippingOptions),
      low_stock_threshold: patch.lowStockThreshold,
      time_zone: patch.timeZone,
      stripe_promotion_codes:
        patch.stripePromotionCodes === undefined ? undefined : patch.stripePromotionCodes ? 1 : 0,
      updated_at: now.toISOString(),
    })
    .where('id', '=', 1)
    .execute();
}

/** Who the order emails come from: the store's name and its contacts (the email's Reply-To and footer). */
export async function readStoreContacts(
  db: DbOrTx,
): Promise<{ name: string; contactEmail: string | null; contactUrl: string | null }> {
  const row = await db
    .selectFrom('settings')
    .select(['store_name', 'contact_email', 'contact_url'])
    .where('id', '=', 1)
    .executeTakeFirst();
  return {
    name: row?.store_name ?? 'My Store',
    contactEmail: row?.contact_email ?? null,
    contactUrl: row?.contact_url ?? null,
  };
}

/** The zone the owner sets dates in (decision 0037): 'UTC' until set, or when the stored name is unknown. */
export async function readTimeZone(db: DbOrTx): Promise<string> {
  const row = await db.selectFrom('settings').select('time_zone').where('id', '=', 1).executeTakeFirst();
  const zone = row?.time_zone ?? 'UTC';
  return isTimeZone(zone) ? zone : 'UTC';
}

/** The banner image, which the orphan sweep must not delete. */
export async function readBannerImageUrl(db: DbOrTx): Promise<string | null> {
  const row = await db
    .selectFrom('settings')
    .select('banner_image_url')
    .where('id', '=', 1)
    .executeTakeFirst();
  return row?.banner_image_url ?? null;
}
