import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config.js';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  loginCookie,
  manualClock,
  sessionCookieFrom,
  type TestStore,
} from '../../../test-support/test-store.js';
import { createInvite, INVITE_GONE } from './invites.js';

const PASSWORD = 'correct horse battery';

/** Invitations by one-time link, over HTTP: made by an owner, emailed through the outbox, taken once. */
describe('admin invitations', () => {
  let store: TestStore;
  let app: FastifyInstance;
  let owner: string;
  const clock = manualClock();

  async function start(env: Record<string, string> = {}) {
    store = await createTestStore({ env });
    await createAdmin(store, 'owner@shop.example', PASSWORD);
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: store.dir,
      LOG_LEVEL: 'silent',
      PUBLIC_URL: 'https://shop.example',
      ...env,
    });
    app = await buildTestApp(store, { clock, config });
    owner = await loginCookie(app, 'owner@shop.example', PASSWORD);
  }
  beforeEach(() => start());
  afterEach(async () => {
    await app.close();
    await store.cleanup();
  });

  async function post(path: string, input: unknown, cookie?: string) {
    const res = await app.inject({
      method: 'POST',
      url: `/api/trpc/${path}`,
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      payload: JSON.stringify(input),
    });
    const body = res.json() as { result?: { data: unknown }; error?: { message: string } };
    return { status: res.statusCode, data: body.result?.data, message: body.error?.message, res };
  }
  const invite = async (email: string, role: 'owner' | 'staff' = 'staff', send = true) => {
    const made = await post('admin.team.invite', { email, role, send }, owner);
    expect(made.status).toBe(200);
    const { link } = made.data as { link: string };
    expect(link).toMatch(/^https:\/\/shop\.example\/admin\/invite#[A-Za-z0-9_-]{43}$/);
    return { link, token: link.split('#')[1] as string };
  };

  it('emails the link through the outbox, and the link makes the account once and signs it in', async () => {
    const { link, token } = await invite('Packer@Shop.example');
    const [email] = await store.handle.db.selectFrom('email_outbox').selectAll().execute();
    expect(email).toMatchObject({
      kind: 'admin_invite',
      to_address: 'packer@shop.example',
      status: 'queued',
    });
    expect(email?.text_body).toContain(link);
    expect(email?.html).toContain(link);
    const open = await app.inject({ url: '/api/trpc/admin.team.invites', headers: { cookie: owner } });
    expect(open.json()).toMatchObject({
      result: { data: [{ email: 'packer@shop.example', role: 'staff' }] },
    });
    // Only the token's hash is kept.
    expect(
      JSON.stringify(await store.handle.db.selectFrom('admin_invites').selectAll().execute()),
    ).not.toContain(token);

    expect((await post('auth.openInvite', { token })).data).toMatchObject({
      email: 'packer@shop.example',
      role: 'staff',
    });
    expect((await post('auth.acceptInvite', { token, password: 'short' })).status).toBe(400);
    const accepted = await post('auth.acceptInvite', { token, password: PASSWORD });
    expect(accepted.data).toEqual({ email: 'packer@shop.example', next: null });
    const cookie = sessionCookieFrom(accepted.res.headers['set-cookie']);
    const me = await app.inject({ url: '/api/trpc/auth.me', headers: { cookie } });
    expect(me.json()).toMatchObject({ result: { data: { stage: 'signed-in', role: 'staff' } } });

    // The outbox keeps what it sent, without the spent link.
    const [kept] = await store.handle.db.selectFrom('email_outbox').selectAll().execute();
    expect(`${kept?.text_body} ${kept?.html}`).not.toContain(token);
    expect(kept?.subject).toBe(email?.subject);

    const again = await post('auth.acceptInvite', { token, password: 'another long password' });
    expect([again.status, again.message]).toEqual([404, INVITE_GONE]);
    expect((await post('auth.openInvite', { token })).status).toBe(404);
    await loginCookie(app, 'packer@shop.example', PASSWORD);
    const audit = await store.handle.db.selectFrom('admin_audit').select(['action', 'admin_email']).execute();
    expect(audit).toEqual(
      expect.arrayContaining([
        { action: 'admin.team.invite', admin_email: 'owner@shop.example' },
        { action: 'auth.acceptInvite', admin_email: 'packer@shop.example' },
      ]),
    );
  });

  it('works for seven days, until withdrawn, or until a newer invitation for the same email', async () => {
    const first = await invite('a@shop.example', 'staff', false);
    expect(await store.handle.db.selectFrom('email_outbox').selectAll().execute()).toEqual([]);
    const second = await invite('a@shop.example', 'owner', false);
    expect((await post('auth.openInvite', { token: first.token })).status).toBe(404);
    expect((await post('auth.openInvite', { token: second.token })).data).toMatchObject({ role: 'owner' });

    const third = await invite('b@shop.example');
    const list = (
      await app.inject({ url: '/api/trpc/admin.team.invites', headers: { cookie: owner } })
    ).json() as {
      result: { data: Array<{ id: number; email: string }> };
    };
    const b = list.result.data.find((i) => i.email === 'b@shop.example');
    expect((await post('admin.team.revokeInvite', { id: b?.id }, owner)).status).toBe(200);
    expect((await post('auth.acceptInvite', { token: third.token, password: PASSWORD })).status).toBe(404);

    clock.advance(7 * 24 * 3600_000 + 1000);
    owner = await loginCookie(app, 'owner@shop.example', PASSWORD);
    expect((await post('auth.acceptInvite', { token: second.token, password: PASSWORD })).status).toBe(404);
  });

  it('refuses to invite an existing admin, and made-up tokens', async () => {
    const refused = await post('admin.team.invite', { email: 'OWNER@shop.example', role: 'staff' }, owner);
    expect([refused.status, refused.message]).toEqual([400, 'owner@shop.example is an admin already']);
    expect((await post('auth.openInvite', { token: 'x'.repeat(43) })).status).toBe(404);
    expect((await post('auth.acceptInvite', { token: '../../etc', password: PASSWORD })).status).toBe(400);
  });

  it('with ADMIN_REQUIRE_2FA the new account enrols next', async () => {
    await app.close();
    await store.cleanup();
    await start({ ADMIN_REQUIRE_2FA: 'true' });
    // The owner's own session must enrol first too: invitations wait until it has.
    const refused = await post('admin.team.invite', { email: 'c@shop.example', role: 'staff' }, owner);
    expect(refused.status).toBe(403);
    const { token } = await createInvite(store.handle.db, {
      email: 'c@shop.example',
      role: 'staff',
      invitedBy: 'owner@shop.example',
      now: clock.now(),
    });
    const accepted = await post('auth.acceptInvite', { token, password: PASSWORD });
    expect(accepted.data).toEqual({ email: 'c@shop.example', next: 'enrol' });
    const cookie = sessionCookieFrom(accepted.res.headers['set-cookie']);
    const me = await app.inject({ url: '/api/trpc/auth.me', headers: { cookie } });
    expect(me.json()).toMatchObject({ result: { data: { stage: 'enrol', email: 'c@shop.example' } } });
  });
});
