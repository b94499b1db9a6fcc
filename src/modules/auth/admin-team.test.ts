import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createAdmin,
  createTestStore,
  fixedClock,
  SESSION_FACTS,
  type TestStore,
} from '../../test-support/test-store.js';

/** The owner's Team view: the accounts, their roles, and removing one (decision 0030). */
describe('the team, as the owner manages it', () => {
  let store: TestStore;
  let ownerId: number;
  let packerId: number;
  beforeEach(async () => {
    store = await createTestStore();
    ownerId = await createAdmin(store, 'owner@shop.example', 'correct horse battery');
    packerId = await createAdmin(store, 'packer@shop.example', 'correct horse battery', 'staff');
  });
  afterEach(() => store.cleanup());

  const team = () =>
    store.caller({
      admin: {
        id: ownerId,
        email: 'owner@shop.example',
        loginAt: fixedClock.now().toISOString(),
        role: 'owner',
        ...SESSION_FACTS,
      },
    }).admin.team;

  it('lists every account with its role, marking the owner’s own', async () => {
    expect((await team().list()).map((a) => [a.email, a.role, a.you])).toEqual([
      ['owner@shop.example', 'owner', true],
      ['packer@shop.example', 'staff', false],
    ]);
  });

  it('changes another account’s role, recorded in the audit with before and after', async () => {
    await team().setRole({ id: packerId, role: 'owner' });
    expect((await team().list()).find((a) => a.id === packerId)?.role).toBe('owner');
    const [entry] = (
      await store
        .caller({
          admin: { id: ownerId, email: 'owner@shop.example', loginAt: '', role: 'owner', ...SESSION_FACTS },
        })
        .admin.audit.list({})
    ).items;
    expect(entry).toMatchObject({
      action: 'admin.team.setRole',
      target: String(packerId),
      details: { changes: [{ field: 'role', from: 'staff', to: 'owner' }] },
    });
  });

  it('removes another account, and never the owner’s own here', async () => {
    await team().remove({ id: packerId });
    expect((await team().list()).map((a) => a.email)).toEqual(['owner@shop.example']);
    const own = 'You cannot change or remove your own account here: ask another owner';
    await expect(team().remove({ id: ownerId })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: own });
    await expect(team().setRole({ id: ownerId, role: 'staff' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: own,
    });
    await expect(team().remove({ id: 9999 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
