import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, fixedClock, SESSION_FACTS, type TestStore } from '../../test-support/test-store.js';
import { readStoreIdentity } from '../email/store-identity.js';

const admin = {
  id: 1,
  email: 'owner@shop.example',
  loginAt: fixedClock.now().toISOString(),
  role: 'owner' as const,
  ...SESSION_FACTS,
};

describe('the contact email setting', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore();
  });
  afterAll(async () => store.cleanup());

  it('is saved from the settings form, read by the emails, and never shown to shoppers', async () => {
    const caller = store.caller({ admin });
    const form = await caller.admin.settings.get();
    expect(form.contactEmail).toBe('');
    await caller.admin.settings.update({
      ...form,
      storeName: 'Zari & Co',
      contactEmail: ' help@zari.example ',
    });
    expect((await caller.admin.settings.get()).contactEmail).toBe('help@zari.example');
    expect(await readStoreIdentity(store.handle.db, 'https://shop.example')).toEqual({
      name: 'Zari & Co',
      contactEmail: 'help@zari.example',
      contactUrl: null,
      publicUrl: 'https://shop.example',
    });
    expect(JSON.stringify(await caller.site.settings())).not.toContain('help@zari.example');

    // A client that does not send the field keeps the stored address; an empty one clears it.
    const { contactEmail: _left, ...older } = await caller.admin.settings.get();
    await caller.admin.settings.update(older);
    expect((await caller.admin.settings.get()).contactEmail).toBe('help@zari.example');
    await caller.admin.settings.update({ ...older, contactEmail: '' });
    expect((await readStoreIdentity(store.handle.db, 'https://shop.example')).contactEmail).toBeNull();
  });

  it('refuses what is not an email address, or is longer than 254 characters', async () => {
    const caller = store.caller({ admin });
    const form = await caller.admin.settings.get();
    for (const bad of ['help at zari', 'a@b.example\r\nBcc: x@y.example', `${'a'.repeat(245)}@zari.example`])
      await expect(caller.admin.settings.update({ ...form, contactEmail: bad })).rejects.toMatchObject({
        code: 'BAD_REQUEST',
      });
  });
});
