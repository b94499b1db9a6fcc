import type { DiscountFields, DiscountFormValues } from '../../shared/discount-input.js';
import type { Discount } from '../../shared/discounts.js';
import { minorToMajorString } from '../../shared/money.js';
import { localToUtc, utcToLocal } from '../../shared/zoned-time.js';
import type { DiscountWrite } from './discounts-admin.repository.js';

/**
 * Between the admin's form (wall-clock times in the shop's zone, amounts in major units) and the stored
 * discount (UTC instants, minor units). The zone is the shop's setting, read by the caller.
 */

/** The form's fields as stored: null when a time is none in the zone. */
export function toWrite(
  fields: DiscountFields,
  zone: string,
): DiscountWrite | { badField: 'startsAt' | 'endsAt' } {
  const startsAt = localToUtc(fields.startsLocal, zone);
  if (startsAt === null) return { badField: 'startsAt' };
  const endsAt = fields.endsLocal === null ? null : localToUtc(fields.endsLocal, zone);
  if (fields.endsLocal !== null && (endsAt === null || endsAt <= startsAt)) return { badField: 'endsAt' };
  return {
    kind: fields.kind,
    name: fields.name,
    code: fields.code,
    value: fields.value,
    target: fields.target,
    scope: fields.scope,
    startsAt,
    endsAt,
    minOrderMinor: fields.minOrderMinor,
    minOrderCurrency: fields.minOrderCurrency,
    maxUses: fields.maxUses,
    maxUsesPerEmail: fields.maxUsesPerEmail,
  };
}

/** A stored discount as the form edits it. */
export function toFormValues(d: Discount, zone: string, fallbackCurrency: string): DiscountFormValues {
  const currency = d.value.type === 'fixed' ? d.value.currency : (d.minOrderCurrency ?? fallbackCurrency);
  const scopeKind =
    (d.scope.products?.length ?? 0) > 0 ? 'products' : (d.scope.tags?.length ?? 0) > 0 ? 'tags' : 'all';
  return {
    kind: d.kind,
    name: d.name,
    code: d.code ?? '',
    valueType: d.value.type,
    percent: d.value.type === 'percent' ? String(d.value.percent) : '',
    amount: d.value.type === 'fixed' ? minorToMajorString(d.value.amountMinor, d.value.currency) : '',
    currency,
    target: d.target,
    scopeKind,
    tags: d.scope.tags ?? [],
    products: d.scope.products ?? [],
    colours: d.scope.colours ?? [],
    startsAt: utcToLocal(d.startsAt, zone),
    endsAt: d.endsAt === null ? '' : utcToLocal(d.endsAt, zone),
    minOrder: d.minOrderMinor === null ? '' : minorToMajorString(d.minOrderMinor, currency),
    maxUses: d.maxUses === null ? '' : String(d.maxUses),
    maxUsesPerEmail: d.maxUsesPerEmail === null ? '' : String(d.maxUsesPerEmail),
  };
}
