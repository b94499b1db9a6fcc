import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setAdminRole } from '../modules/auth/admins.repository.js';
import type { AdminRole } from '../shared/auth.js';
import { adminProcedures, procedureOf } from '../test-support/router-procedures.js';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  fixedClock,
  loginCookie,
  SESSION_FACTS,
  type TestStore,
} from '../test-support/test-store.js';

/**
 * What staff may call (decision 0030): products, media, orders short of money, the order emails, their own
 * account, and a look at the sales and codes (decision 0037). Anything not listed is the owner's alone,
 * so a new procedure is refused to staff until it is listed here on purpose.
 */
const STAFF_MAY = new Set([
  'admin.account.profile',
  'admin.account.changePassword',
  'admin.account.signOutEverywhere',
  'admin.account.sessions',
  'admin.account.endSession',
  'admin.account.confirmIdentity',
  'admin.account.twoFactor.status',
  'admin.account.twoFactor.begin',
  'admin.account.twoFactor.confirm',
  'admin.account.twoFactor.disable',
  'admin.account.twoFactor.recoveryCodes',
  'admin.products.list',
  'admin.products.byId',
  'admin.products.newId',
  'admin.products.create',
  'admin.products.update',
  'admin.products.remove',
  'admin.products.history',
  'admin.products.lowStock',
  'admin.media.list',
  'admin.media.addUrl',
  'admin.media.update',
  'admin.media.remove',
  'admin.media.reorder',
  'admin.orders.list',
  'admin.orders.byId',
  'admin.orders.ship',
  'admin.orders.markDelivered',
  'admin.orders.recordCashCollected',
  'admin.orders.returnedToOrigin',
  'admin.orders.reconcile',
  // Cash on delivery confirmed after a call (decision 0038): any admin.
  'admin.orders.confirmCashOnDelivery',
  // Returns (issue 43): moving a parcel along is any admin's, as shipping is; the refund is the owner's.
  'admin.returns.list',
  'admin.returns.get',
  // The exchange's packing slip: the only money on it is what the courier collects at the door.
  'admin.returns.packingSlip',
  'admin.returns.approve',
  'admin.returns.decline',
  'admin.returns.receive',
  'admin.returns.closeExchange',
  // A price difference paid another way (cash to the courier), as recordCashCollected is (decision 0039).
  'admin.returns.recordDifferencePaid',
  'admin.returns.reasonsByProduct',
  'admin.settings.returns.get',
  'admin.emails.list',
  'admin.emails.resend',
  'admin.settings.get',
  'admin.settings.paymentMethods',
  'admin.discounts.list',
  'admin.discounts.get',
  // The overview (issue 44): today's work for any admin; the money in it is the owner's (period null for staff).
  'admin.dashboard.overview',
  // Sell-through per size and the reorder mix (issue 44): units and stock, no money. The health is the owner's.
  'admin.dashboard.sellThrough',
]);

/** The admin HTTP routes and who may use them; the test fails on a route missing here or gone. */
const ROUTES: Record<string, 'admin' | 'owner'> = {
  'GET /api/admin/orders/export.csv': 'admin',
  'POST /api/admin/products/:productId/media': 'admin',
  'POST /api/admin/settings/banner-image': 'owner',
  'GET /api/admin/logs/export': 'owner',
  'GET /api/admin/catalog/versions/:id/download': 'owner',
  'POST /api/admin/catalog/import': 'owner',
};

/** Calls a procedure with no input as an account of its own (what it does to that account stays there). */
const callAs = (store: TestStore, id: number, role: AdminRole, path: string) => {
  const caller = store.caller({
    admin: {
      id,
      email: 'caller@shop.example',
      loginAt: fixedClock.now().toISOString(),
      role,
      ...SESSION_FACTS,
    },
  });
  return procedureOf(
    caller,
    path,
  )(undefined).then(
    () => 'ok',
    (error: { code?: string }) => error.code ?? 'error',
  );
};

describe('owner and staff', () => {
  let store: TestStore;
  let app: FastifyInstance;
  let staff: string;
  let owner: string;
  let callerId: number;
  beforeAll(async () => {
    store = await createTestStore();
    await createAdmin(store, 'owner@shop.example', 'correct horse battery');
    await createAdmin(store, 'packer@shop.example', 'correct horse battery', 'staff');
    callerId = await createAdmin(store, 'caller@shop.example', 'correct horse battery');
    app = await buildTestApp(store);
    owner = await loginCookie(app, 'owner@shop.example', 'correct horse battery');
    staff = await loginCookie(app, 'packer@shop.example', 'correct horse battery');
  });
  afterAll(async () => {
    await app.close();
    await store.cleanup();
  });

  it('lists only procedures that exist', () => {
    const paths = new Set(adminProcedures.map((p) => p.path));
    expect([...STAFF_MAY].filter((p) => !paths.has(p))).toEqual([]);
    expect(adminProcedures.length).toBeGreaterThan(STAFF_MAY.size);
  });

  it.each(adminProcedures)('$path: staff are refused exactly when it is the owner’s', async ({ path }) => {
    const outcome = await callAs(store, callerId, 'staff', path);
    if (STAFF_MAY.has(path)) expect(outcome).not.toMatch(/^(FORBIDDEN|UNAUTHORIZED)$/);
    else expect(outcome).toBe('FORBIDDEN');
  });

  it.each(adminProcedures)('$path: the owner is never refused', async ({ path }) => {
    expect(await callAs(store, callerId, 'owner', path)).not.toMatch(/^(FORBIDDEN|UNAUTHORIZED)$/);
  });

  it.each(adminProcedures.filter((p) => !STAFF_MAY.has(p.path)))(
    '$path answers 403 over HTTP to a signed-in staff account',
    async ({ path, type }) => {
      const headers = { 'content-type': 'application/json', cookie: staff };
      const res =
        type === 'mutation'
          ? await app.inject({ method: 'POST', url: `/api/trpc/${path}`, headers, payload: '{}' })
          : await app.inject({ method: 'GET', url: `/api/trpc/${path}`, headers });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: { message: 'Only the shop owner can do this.' } });
    },
  );

  it('guards every admin HTTP route, each for the audience listed', () => {
    const found = Object.fromEntries(app.adminRoutes.map((r) => [`${r.method} ${r.url}`, r.audience]));
    expect(found).toEqual(ROUTES);
  });

  it.each(Object.entries(ROUTES))(
    '%s: refuses staff exactly when it is the owner’s',
    async (route, audience) => {
      const [method, url] = route.split(' ') as ['GET' | 'POST', string];
      const target = url.replace(':productId', 'p1').replace(':id', '1');
      const asStaff = await app.inject({ method, url: target, headers: { cookie: staff } });
      const asOwner = await app.inject({ method, url: target, headers: { cookie: owner } });
      expect(asOwner.statusCode).not.toBe(401);
      expect(asOwner.statusCode).not.toBe(403);
      if (audience === 'owner') {
        expect(asStaff.statusCode).toBe(403);
        expect(asStaff.json()).toEqual({ error: 'Forbidden', message: 'Only the shop owner can do this.' });
      } else {
        expect(asStaff.statusCode).not.toBe(401);
        expect(asStaff.statusCode).not.toBe(403);
      }
    },
  );

  it('reads the role on every request: a staff account made owner may publish at once, and back', async () => {
    const versions = () =>
      app.inject({ url: '/api/trpc/admin.catalog.versions', headers: { cookie: staff } });
    expect((await versions()).statusCode).toBe(403);
    const packer = await store.handle.db
      .selectFrom('admins')
      .select('id')
      .where('email', '=', 'packer@shop.example')
      .executeTakeFirstOrThrow();
    await setAdminRole(store.handle.db, packer.id, 'owner', fixedClock.now());
    expect((await versions()).statusCode).toBe(200);
    await setAdminRole(store.handle.db, packer.id, 'staff', fixedClock.now());
    expect((await versions()).statusCode).toBe(403);
  });

  it('tells the client which role is signed in', async () => {
    const me = async (cookie: string) =>
      (
        (await app.inject({ url: '/api/trpc/auth.me', headers: { cookie } })).json() as {
          result: { data: { role: string } };
        }
      ).result.data.role;
    expect(await me(owner)).toBe('owner');
    expect(await me(staff)).toBe('staff');
  });
});
