import {
  loadReturnSettings,
  returnSettingsSchema,
  saveReturnSettings,
} from '../../modules/returns/return-settings.js';
import { readPaymentMethods, writePaymentMethods } from '../../modules/settings/payment-method-settings.js';
import { readStoredSettings, updateSettings } from '../../modules/settings/settings.repository.js';
import { minorToMajorString } from '../../shared/money.js';
import { paymentMethodSettingsInput } from '../../shared/payment-methods.js';
import { settingsInput } from '../../shared/settings-input.js';
import { adminProcedure, ownerProcedure, router } from '../init.js';

/** admin.settings.*: what the storefront shows about the store, and where and how it ships. */
export const adminSettingsRouter = router({
  get: adminProcedure.query(async ({ ctx }) => {
    const s = await readStoredSettings(ctx.db);
    // The form edits texts: empty where nothing is set, amounts in major units of their currency.
    return {
      storeName: s.storeName,
      tagline: s.tagline,
      aboutText: s.aboutText,
      disclaimer: s.disclaimer,
      credits: s.credits,
      specialOrderUrl: s.specialOrderUrl ?? '',
      contactUrl: s.contactUrl ?? '',
      contactEmail: s.contactEmail ?? '',
      bannerTitle: s.bannerTitle ?? '',
      bannerDescription: s.bannerDescription ?? '',
      bannerImageUrl: s.bannerImageUrl ?? '',
      bannerActive: s.bannerActive,
      shippingCountries: s.shippingCountries,
      shippingOptions: s.shippingOptions.map((o) => ({
        label: o.label,
        amount: minorToMajorString(o.amountMinor, o.currency),
        currency: o.currency,
        minDays: o.minDays,
        maxDays: o.maxDays,
      })),
      lowStockThreshold: s.lowStockThreshold ?? 2,
      timeZone: s.timeZone ?? 'UTC',
      stripePromotionCodes: s.stripePromotionCodes ?? false,
    };
  }),

  update: ownerProcedure.input(settingsInput).mutation(async ({ ctx, input }) => {
    const before = await readStoredSettings(ctx.db);
    await updateSettings(ctx.db, input, ctx.clock.now());
    const after = await readStoredSettings(ctx.db);
    ctx.audit.changes = changedFields(before, after);
    ctx.log.info({ event: 'settings.updated', account: ctx.admin.email }, 'store settings updated');
    return { ok: true as const };
  }),

  /** The payment methods as stored (decision 0038): amounts in minor units of the method's currency. */
  paymentMethods: adminProcedure.query(async ({ ctx }) => readPaymentMethods(ctx.db)),

  updatePaymentMethods: ownerProcedure.input(paymentMethodSettingsInput).mutation(async ({ ctx, input }) => {
    const before = await readPaymentMethods(ctx.db);
    await writePaymentMethods(ctx.db, input, ctx.clock.now());
    ctx.audit.changes = changedFields(before, input);
    ctx.log.info(
      { event: 'settings.payment_methods_updated', account: ctx.admin.email },
      'payment methods updated',
    );
    return { ok: true as const };
  }),

  /** The return policy (issue 43): any admin may read it, as staff answer shoppers; the owner sets it. */
  returns: router({
    get: adminProcedure.query(async ({ ctx }) => loadReturnSettings(ctx.db)),
    update: ownerProcedure.input(returnSettingsSchema).mutation(async ({ ctx, input }) => {
      const before = await loadReturnSettings(ctx.db);
      await saveReturnSettings(ctx.db, input, ctx.clock.now());
      ctx.audit.changes = changedFields(before, input);
      ctx.log.info(
        { event: 'settings.returns_updated', account: ctx.admin.email },
        'return settings updated',
      );
      return loadReturnSettings(ctx.db);
    }),
  }),
});

/** The settings that differ, each with what it was and what it is now. */
function changedFields<T extends object>(before: T, after: T) {
  return (Object.keys(after) as Array<keyof T>)
    .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
    .map((key) => ({ field: key, from: before[key] ?? null, to: after[key] ?? null }));
}
