import { sql } from 'kysely';
import { z } from 'zod';
import type { DbOrTx } from '../../db/database.js';
import type { Credit, SiteSettings, VersionRecord } from '../../shared/site.js';

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
