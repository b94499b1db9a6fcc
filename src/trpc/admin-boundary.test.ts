import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminProcedures, procedureOf, routerProcedures } from '../test-support/router-procedures.js';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  loginCookie,
  manualClock,
  type TestStore,
} from '../test-support/test-store.js';

const procedures = routerProcedures;

describe('the admin boundary', () => {
  let store: TestStore;
  let app: FastifyInstance;
  const clock = manualClock();
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    store = await createTestStore();
    await createAdmin(store, 'owner@shop.example', 'correct horse battery');
    app = await buildTestApp(store, { clock });
    const valid = await loginCookie(app, 'owner@shop.example', 'correct horse battery');
    const v = valid.slice('store_session='.length);
    cookies.tampered = `store_session=${v.slice(0, 12)}${v[12] === 'x' ? 'y' : 'x'}${v.slice(13)}`;
    cookies.forged = 'store_session=eyJhZG1pbklkIjoxfQ%3D%3D%3Bbm9uY2U%3D';

    cookies.expired = await loginCookie(app, 'owner@shop.example', 'correct horse battery');
    clock.advance(13 * 3600_000);

    cookies.signedOutEverywhere = await loginCookie(app, 'owner@shop.example', 'correct horse battery');
    const other = await loginCookie(app, 'owner@shop.example', 'correct horse battery');
    const res = await app.inject({
      method: 'POST',
      url: '/api/trpc/admin.account.signOutEverywhere',
      headers: { 'content-type': 'application/json', cookie: other },
    });
    expect(res.statusCode).toBe(200);
  });
  afterAll(async () => {
    await app.close();
    await store.cleanup();
  });

  it('has admin procedures to check, and every one sits under admin.*', () => {
    expect(adminProcedures.length).toBeGreaterThan(0);
    expect(procedures.filter((p) => p.path.includes('admin') && !p.path.startsWith('admin.'))).toEqual([]);
  });

  it('lets a valid session through (the control that makes the refusals below mean something)', async () => {
    const fresh = await loginCookie(app, 'owner@shop.example', 'correct horse battery');
    const res = await app.inject({ url: '/api/trpc/admin.account.profile', headers: { cookie: fresh } });
    expect(res.statusCode).toBe(200);
  });

  it.each(adminProcedures)('$path refuses a caller without a session (createCaller)', async ({ path }) => {
    await expect(procedureOf(store.caller(), path)(undefined)).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });

  for (const scenario of ['none', 'tampered', 'forged', 'expired', 'signedOutEverywhere'] as const) {
    it.each(adminProcedures)(
      `$path answers 401 over HTTP with ${scenario} session`,
      async ({ path, type }) => {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (scenario !== 'none') headers.cookie = cookies[scenario] ?? '';
        const res =
          type === 'mutation'
            ? await app.inject({ method: 'POST', url: `/api/trpc/${path}`, headers, payload: '{}' })
            : await app.inject({ method: 'GET', url: `/api/trpc/${path}`, headers });
        expect(res.statusCode).toBe(401);
        expect(res.body).not.toContain('owner@shop.example');
      },
    );
  }
});
