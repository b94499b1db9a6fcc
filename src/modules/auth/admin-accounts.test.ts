import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAdmin, createTestStore, fixedClock, type TestStore } from '../../test-support/test-store.js';
import { AdminAccountError, changeRole, createAccount, removeAccount } from './admin-accounts.js';
import { findAdminByEmail, listAdmins } from './admins.repository.js';

describe('admin accounts and their roles', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await createTestStore();
    await createAdmin(store, 'owner@shop.example', 'correct horse battery');
  });
  afterEach(() => store.cleanup());
  const now = fixedClock.now();
  const roles = async () =>
    Object.fromEntries((await listAdmins(store.handle.db)).map((a) => [a.email, a.role]));

  it('creates staff and owners, once per address whatever its case', async () => {
    const db = store.handle.db;
    await createAccount(db, { email: ' Packer@Shop.example', passwordHash: 'h', role: 'staff' }, now);
    expect(await roles()).toEqual({ 'owner@shop.example': 'owner', 'packer@shop.example': 'staff' });
    await expect(
      createAccount(db, { email: 'PACKER@shop.example', passwordHash: 'h', role: 'owner' }, now),
    ).rejects.toThrow(new AdminAccountError('An admin packer@shop.example already exists'));
  });

  it('never leaves the shop without an owner', async () => {
    const db = store.handle.db;
    const lastOwner = new AdminAccountError('This is the last owner: make another account owner first');
    await expect(changeRole(db, 'owner@shop.example', 'staff', now)).rejects.toThrow(lastOwner);
    await expect(removeAccount(db, 'owner@shop.example')).rejects.toThrow(lastOwner);

    await createAccount(db, { email: 'partner@shop.example', passwordHash: 'h', role: 'staff' }, now);
    await changeRole(db, 'partner@shop.example', 'owner', now);
    await changeRole(db, 'owner@shop.example', 'staff', now);
    expect(await roles()).toEqual({ 'owner@shop.example': 'staff', 'partner@shop.example': 'owner' });
    await expect(removeAccount(db, 'partner@shop.example')).rejects.toThrow(lastOwner);
    await removeAccount(db, 'owner@shop.example');
    expect(await roles()).toEqual({ 'partner@shop.example': 'owner' });
    await expect(changeRole(db, 'nobody@shop.example', 'owner', now)).rejects.toThrow(
      new AdminAccountError('No admin nobody@shop.example'),
    );
  });

  it('takes the sessions of a removed account with it', async () => {
    const db = store.handle.db;
    const id = await createAdmin(store, 'packer@shop.example', 'correct horse battery', 'staff');
    const iso = now.toISOString();
    await db
      .insertInto('admin_sessions')
      .values({
        id: 'a'.repeat(22),
        admin_id: id,
        epoch: 0,
        created_at: iso,
        last_seen_at: iso,
        revoked_at: null,
        revoked_reason: null,
        user_agent: null,
        created_ip: null,
        last_seen_ip: null,
      })
      .execute();
    await removeAccount(db, 'packer@shop.example');
    expect(await findAdminByEmail(db, 'packer@shop.example')).toBeNull();
    expect(await db.selectFrom('admin_sessions').select('id').where('admin_id', '=', id).execute()).toEqual(
      [],
    );
  });
});
