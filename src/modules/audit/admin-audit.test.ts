import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../shared/audit.js';
import { adminProcedures, procedureOf } from '../../test-support/router-procedures.js';
import {
  createAdmin,
  createTestStore,
  fixedClock,
  SESSION_FACTS,
  type TestStore,
} from '../../test-support/test-store.js';

const fields = {
  title: 'Mint Lawn Kurta',
  description: 'Breezy lawn',
  sku: 'MLK-1',
  price: '85.00',
  currency: 'usd',
  sizes: ['S', 'M'],
  tags: [],
  colors: [],
};

/** The admin audit (decision 0031): every change an admin makes, with who, when, where from and what. */
describe('the admin audit', () => {
  let store: TestStore;
  let ownerId: number;
  beforeEach(async () => {
    store = await createTestStore();
    ownerId = await createAdmin(store, 'owner@shop.example', 'correct horse battery');
  });
  afterEach(() => store.cleanup());

  const owner = () =>
    store.caller({
      admin: {
        id: ownerId,
        email: 'owner@shop.example',
        loginAt: fixedClock.now().toISOString(),
        role: 'owner',
        ...SESSION_FACTS,
      },
      ip: '203.0.113.7',
    });
  const entries = async () => (await owner().admin.audit.list({})).items;

  it('records nothing of what staff were refused', async () => {
    const staff = store.caller({
      admin: {
        id: 99,
        email: 'packer@shop.example',
        loginAt: fixedClock.now().toISOString(),
        role: 'staff',
        ...SESSION_FACTS,
      },
    });
    const refused: string[] = [];
    const changed: string[] = [];
    for (const { path, type } of adminProcedures) {
      const outcome = await procedureOf(
        staff,
        path,
      )(undefined).then(
        () => 'ok',
        (error: { code?: string }) => error.code,
      );
      if (outcome === 'FORBIDDEN') refused.push(path);
      if (outcome === 'ok' && type === 'mutation') changed.push(path);
    }
    expect(refused.length).toBeGreaterThan(5);
    const rows = await store.handle.db
      .selectFrom('admin_audit')
      .select(['action', 'admin_email'])
      .orderBy('id')
      .execute();
    // What staff may do and did (signing out everywhere, asking Stripe about orders) is recorded; nothing
    // refused is.
    expect(rows.map((r) => r.action)).toEqual(changed);
    expect(rows.every((r) => r.admin_email === 'packer@shop.example')).toBe(true);
  });

  it('records each admin change that succeeded, and no read or refusal', async () => {
    for (const { path, type } of adminProcedures) {
      const before = (await store.handle.db.selectFrom('admin_audit').select('id').execute()).length;
      const succeeded = await procedureOf(
        owner(),
        path,
      )(undefined).then(
        () => true,
        () => false,
      );
      const rows = await store.handle.db
        .selectFrom('admin_audit')
        .select(['action', 'admin_email', 'ip'])
        .orderBy('id')
        .execute();
      const added = rows.slice(before);
      if (type === 'mutation' && succeeded) {
        expect(added, path).toEqual([{ action: path, admin_email: 'owner@shop.example', ip: '203.0.113.7' }]);
      } else {
        expect(added, path).toEqual([]);
      }
    }
  });

  it('keeps what an edit changed, before and after, and the input without its secrets', async () => {
    const created = await owner().admin.products.create({ fields });
    await owner().admin.products.update({
      id: created.id,
      expectedUpdatedAt: created.updatedAt,
      fields: { ...fields, price: '90.00' },
    });
    await owner()
      .admin.account.changePassword({
        currentPassword: 'correct horse battery',
        newPassword: 'a much longer new password',
      })
      .catch(() => undefined);

    const [password, update, create] = await entries();
    expect(create).toMatchObject({ action: 'admin.products.create', admin: 'owner@shop.example' });
    expect(update).toMatchObject({
      action: 'admin.products.update',
      target: created.id,
      details: { changes: [{ field: 'price', from: '85.00', to: '90.00' }] },
    });
    expect(password).toMatchObject({
      action: 'admin.account.changePassword',
      details: { input: { currentPassword: '[hidden]', newPassword: '[hidden]' } },
    });
    expect(JSON.stringify(password)).not.toContain('correct horse battery');
  });

  it('keeps a settings change as before and after', async () => {
    const current = await owner().admin.settings.get();
    await owner().admin.settings.update({ ...current, storeName: 'Rang Rasiya' });
    const [entry] = await entries();
    expect(entry?.details.changes).toEqual([
      { field: 'storeName', from: current.storeName, to: 'Rang Rasiya' },
    ]);
  });

  it('filters by admin, action and days, newest first, a page at a time', async () => {
    const db = store.handle.db;
    const row = (at: string, email: string, action: string) => ({
      at,
      admin_id: 1,
      admin_email: email,
      ip: null,
      action,
      target: null,
    });
    await db
      .insertInto('admin_audit')
      .values([
        row('2026-11-20T09:00:00.000Z', 'owner@shop.example', 'admin.settings.update'),
        row('2026-11-21T23:59:59.999Z', 'packer@shop.example', 'admin.orders.ship'),
        row('2026-11-22T00:00:00.000Z', 'packer@shop.example', 'admin.orders.ship'),
        row('2026-11-22T10:00:00.000Z', 'owner@shop.example', 'admin.orders.refund'),
      ])
      .execute();
    const at = (items: AuditEntry[]) => items.map((e) => e.at);
    const list = (f: Parameters<ReturnType<typeof owner>['admin']['audit']['list']>[0]) =>
      owner().admin.audit.list(f);

    expect(at((await list({ admin: 'packer@shop.example' })).items)).toEqual([
      '2026-11-22T00:00:00.000Z',
      '2026-11-21T23:59:59.999Z',
    ]);
    expect(at((await list({ action: 'admin.orders.refund' })).items)).toEqual(['2026-11-22T10:00:00.000Z']);
    expect(at((await list({ from: '2026-11-21', to: '2026-11-21' })).items)).toEqual([
      '2026-11-21T23:59:59.999Z',
    ]);
    const first = await list({ limit: 3 });
    expect(first.items).toHaveLength(3);
    const rest = await list({ limit: 3, cursor: first.nextCursor ?? 0 });
    expect(at(rest.items)).toEqual(['2026-11-20T09:00:00.000Z']);
    expect(rest.nextCursor).toBeNull();
    expect(await owner().admin.audit.facets()).toEqual({
      admins: ['owner@shop.example', 'packer@shop.example'],
      actions: ['admin.orders.refund', 'admin.orders.ship', 'admin.settings.update'],
    });
    for (const from of ['21/11/2026', '2026-13-01', '2026-02-30']) {
      await expect(list({ from }), from).rejects.toMatchObject({ code: 'BAD_REQUEST' });
      await expect(list({ to: from }), from).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    }
  });
});
