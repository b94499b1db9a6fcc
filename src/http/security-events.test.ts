import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LogLevel } from '../db/database.js';
import { LogService } from '../modules/logs/log-service.js';
import { DEFAULT_SECURITY_LIMITS } from '../modules/logs/security-gate.js';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  loginCookie,
  type TestStore,
} from '../test-support/test-store.js';

/**
 * Refusals an attacker causes (401 on admin procedures and admin routes, cross-site and non-JSON calls) are
 * security events in the application log, with what an operator needs and no secret; and a flood of them
 * stays a few rows.
 */

const ADMIN = { email: 'owner@shop.example', password: 'correct horse battery' };
/** A cookie value that must never reach the log, whatever the request. */
const SECRET_COOKIE = 'store_session=SeCrEtCoOkIeVaLuE0123456789abcdef%3Bnonce';
const SECRET_QUERY = 'q=customer-typed-secret';

type Row = {
  level: LogLevel;
  source: string;
  message: string;
  details: string;
  request_id: string | null;
  repeat_count: number;
};

describe('security events in the application log', () => {
  let store: TestStore;
  let app: FastifyInstance;
  let logs: LogService;
  let cookie: string;

  beforeAll(async () => {
    store = await createTestStore();
    await createAdmin(store, ADMIN.email, ADMIN.password);
    logs = new LogService({ db: store.handle.db, limits: store.config.logs });
    app = await buildTestApp(store, { logService: logs });
    cookie = await loginCookie(app, ADMIN.email, ADMIN.password);
  });
  beforeEach(async () => {
    await logs.clear();
  });
  afterAll(async () => {
    await app.close();
    await store.cleanup();
  });

  async function securityRows(): Promise<(Row & { facts: Record<string, unknown> })[]> {
    await logs.flush();
    const rows = (await store.handle.db
      .selectFrom('logs')
      .select(['level', 'source', 'message', 'details', 'request_id', 'repeat_count'])
      .where('source', '=', 'security')
      .orderBy('id')
      .execute()) as Row[];
    return rows.map((r) => ({ ...r, facts: JSON.parse(r.details) as Record<string, unknown> }));
  }

  /** Nothing the client sent as a secret, anywhere in the table. */
  async function expectNoSecretLogged(): Promise<void> {
    await logs.flush();
    const all = JSON.stringify(await store.handle.db.selectFrom('logs').selectAll().execute());
    const sessionValue = cookie.slice('store_session='.length);
    for (const secret of ['SeCrEtCoOkIeVaLuE', sessionValue, 'customer-typed-secret', 'store_session']) {
      expect(all).not.toContain(secret);
    }
  }

  it('a tRPC admin call without a valid session leaves one, with its request id and no cookie', async () => {
    const res = await app.inject({
      url: `/api/trpc/admin.settings.get?${SECRET_QUERY}`,
      headers: { cookie: SECRET_COOKIE },
      remoteAddress: '198.51.100.9',
    });
    expect(res.statusCode).toBe(401);
    const [row, ...rest] = await securityRows();
    expect(rest).toEqual([]);
    expect(row).toMatchObject({
      level: 'info',
      message: 'refused an admin request without a valid session',
      request_id: res.headers['x-request-id'],
    });
    expect(row?.facts).toMatchObject({
      event: 'security.unauthorized',
      procedure: 'admin.settings.get',
      type: 'query',
      ip: '198.51.100.9',
    });
    await expectNoSecretLogged();
  });

  it('an admin HTTP route without a valid session leaves one, with method, path and address', async () => {
    const res = await app.inject({
      url: `/api/admin/logs/export?${SECRET_QUERY}`,
      headers: { cookie: SECRET_COOKIE },
      remoteAddress: '198.51.100.10',
    });
    expect(res.statusCode).toBe(401);
    const [row, ...rest] = await securityRows();
    expect(rest).toEqual([]);
    expect(row).toMatchObject({
      message: 'refused an admin request without a valid session',
      request_id: res.headers['x-request-id'],
    });
    expect(row?.facts).toMatchObject({
      event: 'security.unauthorized',
      method: 'GET',
      path: '/api/admin/logs/export',
      route: '/api/admin/logs/export',
      origin: null,
      ip: '198.51.100.10',
    });
    await expectNoSecretLogged();
  });

  it('a cross-site POST leaves one, with the Origin and the reason, and no cookie', async () => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/trpc/admin.account.signOutEverywhere?${SECRET_QUERY}`,
      headers: { 'content-type': 'application/json', origin: 'https://evil.example', cookie },
      payload: JSON.stringify({ password: 'hunter2-in-the-body' }),
    });
    expect(res.statusCode).toBe(403);
    const [row, ...rest] = await securityRows();
    expect(rest).toEqual([]);
    expect(row).toMatchObject({
      level: 'warning',
      message: 'refused a cross-site request',
      request_id: res.headers['x-request-id'],
    });
    expect(row?.facts).toMatchObject({
      event: 'security.cross-site',
      method: 'POST',
      path: '/api/trpc/admin.account.signOutEverywhere',
      origin: 'https://evil.example',
      reason: expect.stringContaining('Origin'),
    });
    await expectNoSecretLogged();
    expect(JSON.stringify(row)).not.toContain('hunter2');
  });

  it('a form post to tRPC through an encoded path leaves one too', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/%74rpc/admin.account.signOutEverywhere',
      headers: { 'content-type': 'multipart/form-data; boundary=x', cookie },
      payload: '--x--\r\n',
    });
    expect(res.statusCode).toBe(415);
    const [row] = await securityRows();
    expect(row?.facts).toMatchObject({
      event: 'security.not-json',
      path: '/api/%74rpc/admin.account.signOutEverywhere',
      route: '/api/trpc/:path',
    });
    await expectNoSecretLogged();
  });
});

describe('a flood of security events', () => {
  let store: TestStore;
  let app: FastifyInstance;
  let logs: LogService;

  beforeAll(async () => {
    store = await createTestStore();
    logs = new LogService({ db: store.handle.db, limits: store.config.logs });
    app = await buildTestApp(store, { logService: logs });
  });
  afterAll(async () => {
    await app.close();
    await store.cleanup();
  });

  it('a flood of refusals stays a few rows, and no more entries than the limit allows', async () => {
    const flood = Array.from({ length: 300 }, (_, i) =>
      app.inject({
        method: 'POST',
        // Different paths and origins each time: the message stays the same, so the rows fold.
        url: `/api/trpc/auth.logout?n=${i}`,
        headers: { 'content-type': 'application/json', origin: `https://evil-${i}.example` },
        payload: '{}',
      }),
    );
    for (const res of await Promise.all(flood)) expect(res.statusCode).toBe(403);
    for (let i = 0; i < 50; i++) {
      expect((await app.inject({ url: '/api/trpc/admin.orders.list' })).statusCode).toBe(401);
    }
    await logs.flush();
    const rows = (
      (await store.handle.db
        .selectFrom('logs')
        .select(['source', 'details', 'repeat_count'])
        .where('source', '=', 'security')
        .execute()) as Pick<Row, 'source' | 'details' | 'repeat_count'>[]
    ).map((r) => ({ ...r, facts: JSON.parse(r.details) as Record<string, unknown> }));
    expect(rows.length).toBeLessThanOrEqual(4);
    const entries = (event: string) =>
      rows.filter((r) => r.facts.event === event).reduce((n, r) => n + r.repeat_count, 0);
    expect(entries('security.cross-site')).toBe(DEFAULT_SECURITY_LIMITS.burst);
    expect(entries('security.unauthorized')).toBeLessThanOrEqual(DEFAULT_SECURITY_LIMITS.burst);
  });
});
