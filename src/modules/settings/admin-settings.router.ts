import { parseJsonArray } from '../../db/json-columns.js';
import { minorToMajorString } from '../../shared/money.js';
import { settingsInput } from '../../shared/settings-input.js';
import { adminProcedure, router } from '../../trpc/init.js';
import { readSiteSettings } from '../site/settings.repository.js';

type StoredShippingOption = {
  label: string;
  amountMinor: number;
  currency: string;
  minDays: number | null;
  maxDays: number | null;
};

function storedShippingOptions(text: string): StoredShippingOption[] {
  try {
    const raw: unknown = JSON.parse(text);
    return Array.isArray(raw) ? (raw as StoredShippingOption[]) : [];
  } catch {
    return [];
  }
}

/** admin.settings.*: what the storefront shows about the store, and where and how it ships. */
export const adminSettingsRouter = router({
  get: adminProcedure.query(async ({ ctx }) => {
    const site = await readSiteSettings(ctx.db);
    const row = await ctx.db
      .selectFrom('settings')
      .select([
        'shipping_countries',
        'shipping_options',
        'banner_title',
        'banner_description',
        'banner_image_url',
        'banner_active',
      ])
      .where('id', '=', 1)
      .executeTakeFirst();
    return {
      storeName: site.storeName,
      tagline: site.tagline,
      aboutText: site.aboutText,
      disclaimer: site.disclaimer,
      credits: site.credits,
      specialOrderUrl: site.specialOrderUrl ?? '',
      contactUrl: site.contactUrl ?? '',
      bannerTitle: row?.banner_title ?? '',
      bannerDescription: row?.banner_description ?? '',
      bannerImageUrl: row?.banner_image_url ?? '',
      bannerActive: row?.banner_active === 1,
      shippingCountries: parseJsonArray(row?.shipping_countries ?? '[]'),
      shippingOptions: storedShippingOptions(row?.shipping_options ?? '[]').map((o) => ({
        label: o.label,
        amount: minorToMajorString(o.amountMinor, o.currency),
        currency: o.currency,
        minDays: o.minDays,
        maxDays: o.maxDays,
      })),
    };
  }),

  update: adminProcedure.input(settingsInput).mutation(async ({ ctx, input }) => {
    await ctx.db
      .updateTable('settings')
      .set({
        store_name: input.storeName,
        tagline: input.tagline,
        about_text: input.aboutText,
        disclaimer: input.disclaimer,
        credits: JSON.stringify(input.credits),
        special_order_url: input.specialOrderUrl,
        contact_url: input.contactUrl,
        banner_title: input.bannerTitle,
        banner_description: input.bannerDescription,
        banner_image_url: input.bannerImageUrl,
        banner_active: input.bannerActive ? 1 : 0,
        shipping_countries: JSON.stringify(input.shippingCountries),
        shipping_options: JSON.stringify(input.shippingOptions),
        updated_at: ctx.clock.now().toISOString(),
      })
      .where('id', '=', 1)
      .execute();
    ctx.log.info({ event: 'settings.updated', account: ctx.admin.email }, 'store settings updated');
    return { ok: true as const };
  }),
});
