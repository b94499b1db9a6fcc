import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerSession as owner } from '../../test-support/orders.js';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';

describe('admin.settings.returns', () => {
  let store: TestStore;
  const staff = { ...owner, id: 2, email: 'packer@shop.example', role: 'staff' as const };
  const settings = {
    windowDays: 30,
    refundReasons: ['damaged' as const, 'not_as_pictured' as const],
    postagePaidBy: 'shop' as const,
    instructions: 'Send to 12 Mall Road, Lahore. Keep the receipt.',
    finalSaleTags: ['Final-Sale', 'final-sale', 'bridal'],
  };

  beforeAll(async () => {
    store = await createTestStore();
  });
  afterAll(async () => store.cleanup());

  it('reads the defaults on a store that never set them', async () => {
    expect(await store.caller({ admin: staff }).admin.settings.returns.get()).toEqual({
      windowDays: 14,
      refundReasons: ['too_small', 'too_big', 'not_as_pictured', 'damaged', 'changed_mind', 'other'],
      postagePaidBy: 'shopper',
      instructions: '',
      finalSaleTags: [],
    });
  });

  it('is set by the owner only, checked, and audited with what changed', async () => {
    await expect(
      store.caller({ admin: staff }).admin.settings.returns.update(settings),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const saved = await store.caller({ admin: owner }).admin.settings.returns.update(settings);
    // Reasons in their usual order, tags once each whatever their case.
    expect(saved).toEqual({
      ...settings,
      refundReasons: ['not_as_pictured', 'damaged'],
      finalSaleTags: ['final-sale', 'bridal'],
    });
    expect(await store.caller({ admin: staff }).admin.settings.returns.get()).toEqual(saved);
    const audit = await store.handle.db
      .selectFrom('admin_audit')
      .select(['action', 'details'])
      .where('action', '=', 'admin.settings.returns.update')
      .executeTakeFirstOrThrow();
    expect(audit.details).toContain('windowDays');
    for (const bad of [
      { ...settings, windowDays: 366 },
      { ...settings, windowDays: -1 },
      { ...settings, refundReasons: ['lost'] },
      { ...settings, postagePaidBy: 'nobody' },
      { ...settings, instructions: 'x'.repeat(2001) },
      { ...settings, finalSaleTags: Array.from({ length: 51 }, (_, i) => `t${i}`) },
    ]) {
      await expect(
        store.caller({ admin: owner }).admin.settings.returns.update(bad as typeof settings),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    }
    expect(await store.caller({ admin: owner }).admin.settings.returns.get()).toEqual(saved);
  });
});
