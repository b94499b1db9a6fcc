import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, fixedClock, SESSION_FACTS, type TestStore } from '../../test-support/test-store.js';
import { readTimeZone } from './settings.repository.js';

const owner = {
  id: 1,
  email: 'owner@shop.example',
  loginAt: fixedClock.now().toISOString(),
  role: 'owner' as const,
  ...SESSION_FACTS,
};

/** The shop's time zone and the Stripe promotion codes switch (decision 0037), saved from the form. */
describe('the time zone and Stripe promotion code settings', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore();
  });
  afterAll(() => store.cleanup());

  it('start as UTC and off, are saved, and are kept when a form leaves them out', async () => {
    const caller = store.caller({ admin: owner });
    const form = await caller.admin.settings.get();
    expect(form).toMatchObject({ timeZone: 'UTC', stripePromotionCodes: false });
    await caller.admin.settings.update({ ...form, timeZone: 'Asia/Karachi', stripePromotionCodes: true });
    expect(await caller.admin.settings.get()).toMatchObject({
      timeZone: 'Asia/Karachi',
      stripePromotionCodes: true,
    });
    expect(await readTimeZone(store.handle.db)).toBe('Asia/Karachi');
    const { timeZone: _z, stripePromotionCodes: _s, ...older } = await caller.admin.settings.get();
    await caller.admin.settings.update(older);
    expect(await caller.admin.settings.get()).toMatchObject({
      timeZone: 'Asia/Karachi',
      stripePromotionCodes: true,
    });
  });

  it('refuses a zone Intl does not know', async () => {
    const caller = store.caller({ admin: owner });
    const form = await caller.admin.settings.get();
    await expect(caller.admin.settings.update({ ...form, timeZone: 'Mars/Olympus' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect((await caller.admin.settings.get()).timeZone).toBe('Asia/Karachi');
  });
});
