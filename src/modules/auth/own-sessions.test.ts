import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdminSessionEntry } from '../../shared/auth.js';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  loginCookie,
  type TestStore,
} from '../../test-support/test-store.js';

const FIREFOX = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

/** Each admin's own sessions on the profile page: listed with device and address, and ended one by one. */
describe("an admin's own sessions", () => {
  let store: TestStore;
  let app: FastifyInstance;
  beforeEach(async () => {
    store = await createTestStore();
    await createAdmin(store, 'owner@shop.example', 'correct horse battery');
    await createAdmin(store, 'packer@shop.example', 'correct horse battery', 'staff');
    app = await buildTestApp(store);
  });
  afterEach(async () => {
    await app.close();
    await store.cleanup();
  });

  const signIn = (email: string, ua: string) =>
    loginCookie(app, email, 'correct horse battery', { 'user-agent': ua });
  const list = async (cookie: string) => {
    const res = await app.inject({ url: '/api/trpc/admin.account.sessions', headers: { cookie } });
    return {
      status: res.statusCode,
      body: res.body,
      sessions: (res.json() as { result?: { data: AdminSessionEntry[] } }).result?.data ?? [],
    };
  };
  const end = (cookie: string, session: string) =>
    app.inject({
      method: 'POST',
      url: '/api/trpc/admin.account.endSession',
      headers: { cookie, 'content-type': 'application/json' },
      payload: JSON.stringify({ session }),
    });

  it('lists each live session with its device and address, and never its id', async () => {
    const laptop = await signIn('owner@shop.example', FIREFOX);
    await signIn('owner@shop.example', CHROME);
    await signIn('packer@shop.example', CHROME);
    const { status, body, sessions } = await list(laptop);
    expect(status).toBe(200);
    expect(sessions.map((s) => [s.device, s.current, s.address])).toEqual(
      expect.arrayContaining([
        ['Firefox on macOS', true, '127.0.0.1'],
        ['Chrome on Linux', false, '127.0.0.1'],
      ]),
    );
    expect(sessions).toHaveLength(2);
    const ids = await store.handle.db.selectFrom('admin_sessions').select('id').execute();
    for (const { id } of ids) expect(body).not.toContain(id);
  });

  it('signs one session out: that browser is signed out at its next request, the others stay', async () => {
    const laptop = await signIn('owner@shop.example', FIREFOX);
    const phone = await signIn('owner@shop.example', CHROME);
    const other = (await list(laptop)).sessions.find((s) => !s.current);
    expect(other?.device).toBe('Chrome on Linux');
    expect((await end(laptop, other?.session ?? '')).statusCode).toBe(200);
    expect((await list(phone)).status).toBe(401);
    expect((await list(laptop)).sessions.map((s) => s.device)).toEqual(['Firefox on macOS']);
    // Ended already: nothing to end.
    expect((await end(laptop, other?.session ?? '')).statusCode).toBe(404);
  });

  it("ends this browser's own session when asked, and never another admin's", async () => {
    const owner = await signIn('owner@shop.example', FIREFOX);
    const packer = await signIn('packer@shop.example', CHROME);
    const ownerSession = (await list(owner)).sessions[0]?.session ?? '';
    expect((await end(packer, ownerSession)).statusCode).toBe(404);
    expect((await list(owner)).status).toBe(200);

    const mine = (await list(packer)).sessions[0]?.session ?? '';
    const res = await end(packer, mine);
    expect(res.json()).toMatchObject({ result: { data: { ok: true, current: true } } });
    expect((await list(packer)).status).toBe(401);
  });

  it('refuses a malformed handle', async () => {
    const owner = await signIn('owner@shop.example', FIREFOX);
    expect((await end(owner, "x' OR 1=1 --")).statusCode).toBe(400);
  });
});
