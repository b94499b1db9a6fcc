import { TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import type { DbOrTx } from '../../db/database.js';
import { toFormValues, toWrite } from '../../modules/discounts/discount-form-values.js';
import {
  createDiscount,
  DISCOUNT_NOT_FOUND_MESSAGE,
  DiscountError,
  endDiscount,
  getDiscount,
  listDiscounts,
  updateDiscount,
} from '../../modules/discounts/discounts-admin.repository.js';
import { readShipping, readTimeZone } from '../../modules/settings/settings.repository.js';
import type { DiscountFields } from '../../shared/discount-input.js';
import { createDiscountInput, discountIdInput, updateDiscountInput } from '../../shared/discount-input.js';
import { adminProcedure, ownerProcedure, router } from '../init.js';

async function mapped<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof DiscountError) throw new TRPCError({ code: err.code, message: err.message });
    throw err;
  }
}

/** The shop's zone and the currency a new discount's form starts with (the shipping's, else US dollars). */
async function formContext(db: DbOrTx) {
  const [zone, shipping] = await Promise.all([readTimeZone(db), readShipping(db)]);
  return { timeZone: zone, currency: shipping.options[0]?.currency ?? 'usd' };
}

/** The fields with their times made instants in the shop's zone, or a field error as a form shows it. */
async function stored(db: DbOrTx, fields: DiscountFields) {
  const { timeZone } = await formContext(db);
  const write = toWrite(fields, timeZone);
  if ('badField' in write) {
    // As a field error (the Zod shape the error formatter sends), so the form shows it beside the field.
    const message =
      write.badField === 'startsAt'
        ? 'This time does not exist in the shop’s time zone'
        : 'The end comes after the start, in the shop’s time zone';
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message,
      cause: new ZodError([{ code: 'custom', path: ['fields', write.badField], message, input: undefined }]),
    });
  }
  return write;
}

/**
 * admin.discounts.*: sales and codes (decision 0037). Owners and staff see them; owners create, change and
 * end them, and ending asks for a fresh confirmation as publishing does (a stolen cookie must not be able to
 * end a running sale). Every change lands in the audit through the admin procedures.
 */
export const adminDiscountsRouter = router({
  list: adminProcedure.query(async ({ ctx }) => {
    const form = await formContext(ctx.db);
    const items = await listDiscounts(ctx.db, ctx.clock.now());
    return {
      ...form,
      items: items.map((d) => ({ ...d, form: toFormValues(d, form.timeZone, form.currency) })),
    };
  }),

  get: adminProcedure.input(discountIdInput).query(async ({ ctx, input }) => {
    const form = await formContext(ctx.db);
    const d = await getDiscount(ctx.db, input.id, ctx.clock.now());
    if (!d) throw new TRPCError({ code: 'NOT_FOUND', message: DISCOUNT_NOT_FOUND_MESSAGE });
    return { ...d, form: toFormValues(d, form.timeZone, form.currency), timeZone: form.timeZone };
  }),

  create: ownerProcedure.input(createDiscountInput).mutation(async ({ ctx, input }) =>
    mapped(async () => {
      const write = await stored(ctx.db, input.fields);
      const id = await createDiscount(ctx.db, write, ctx.clock.now());
      ctx.audit.changes = [{ field: 'id', from: null, to: id }];
      ctx.log.info(
        { event: 'discount.created', discount: id, kind: write.kind, account: ctx.admin.email },
        `${write.kind} created: ${write.name}`,
      );
      return { id };
    }),
  ),

  update: ownerProcedure.input(updateDiscountInput).mutation(async ({ ctx, input }) =>
    mapped(async () => {
      const now = ctx.clock.now();
      const before = await getDiscount(ctx.db, input.id, now);
      if (!before) throw new DiscountError('NOT_FOUND', DISCOUNT_NOT_FOUND_MESSAGE);
      const write = await stored(ctx.db, input.fields);
      await updateDiscount(ctx.db, input.id, write, now);
      const after = await getDiscount(ctx.db, input.id, now);
      ctx.audit.changes = changedFields(before, after ?? before);
      ctx.log.info(
        { event: 'discount.updated', discount: input.id, account: ctx.admin.email },
        `discount updated: ${write.name}`,
      );
      return { ok: true as const };
    }),
  ),

  end: ownerProcedure
    .meta({ freshCode: true })
    .input(discountIdInput)
    .mutation(async ({ ctx, input }) =>
      mapped(async () => {
        const ended = await endDiscount(ctx.db, input.id, ctx.clock.now());
        ctx.log.info(
          { event: 'discount.ended', discount: input.id, changed: ended, account: ctx.admin.email },
          'discount ended',
        );
        return { ended };
      }),
    ),
});

const EDITABLE = [
  'name',
  'code',
  'value',
  'target',
  'scope',
  'startsAt',
  'endsAt',
  'minOrderMinor',
  'maxUses',
  'maxUsesPerEmail',
] as const;

function changedFields(before: Record<(typeof EDITABLE)[number], unknown>, after: typeof before) {
  return EDITABLE.filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key])).map((key) => ({
    field: key,
    from: before[key] ?? null,
    to: after[key] ?? null,
  }));
}
