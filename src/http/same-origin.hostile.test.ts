import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  loginCookie,
  type TestStore,
} from '../test-support/test-store.js';

/**
 * The same-origin guard (same-origin.ts) against addresses written to slip past it, and against a forged
 * Host header in production. The procedure under attack is admin.account.signOutEverywhere: if it ever
 * runs, every other session of the admin ends, so a second session (the witness) tells whether it ran.
 */

const ADMIN = { email: 'owner@shop.example', password: 'correct horse battery' };
const PROCEDURE = 'admin.account.signOutEverywhere';

/** The ways one address can reach the tRPC route, or look as if it might, without reading '/api/trpc/'. */
const BYPASSES: { name: string; url: string }[] = [
  { name: 'an encoded letter in "trpc"', url: `/api/%74rpc/${PROCEDURE}` },
  { name: 'an encoded letter in "api"', url: `/%61pi/trpc/${PROCEDURE}` },
  { name: 'every letter of the prefix encoded', url: `/%61%70%69/%74%72%70%63/${PROCEDURE}` },
  { name: 'an encoded letter in the procedure', url: `/api/trpc/%61dmin.account.signOutEverywhere` },
  { name: 'encoded dots in the procedure', url: '/api/trpc/admin%2Eaccount%2EsignOutEverywhere' },
  { name: 'an encoded slash after "api"', url: `/api%2Ftrpc/${PROCEDURE}` },
  { name: 'a lower-case encoded slash', url: `/api%2ftrpc/${PROCEDURE}` },
  { name: 'an encoded slash after "trpc"', url: `/api/trpc%2F${PROCEDURE}` },
  { name: 'an encoded slash and encoded letters', url: `/%61pi%2F%74rpc/${PROCEDURE}` },
  { name: 'upper case', url: `/API/TRPC/${PROCEDURE}` },
  { name: 'mixed case', url: `/Api/tRPC/${PROCEDURE}` },
  { name: 'a double slash inside', url: `/api//trpc/${PROCEDURE}` },
  { name: 'a double slash before the procedure', url: `/api/trpc//${PROCEDURE}` },
  { name: 'a dot segment', url: `/api/./trpc/${PROCEDURE}` },
  { name: 'the exempt webhook path and dot segments', url: `/api/stripe/webhook/../../trpc/${PROCEDURE}` },
  { name: 'a trailing dot', url: `/api/trpc/${PROCEDURE}.` },
  { name: 'an encoded trailing dot', url: `/api/trpc/${PROCEDURE}%2E` },
  { name: 'a trailing slash', url: `/api/trpc/${PROCEDURE}/` },
  { name: 'a path parameter', url: `/api/trpc/${PROCEDURE};x=1` },
  { name: 'an encoded batch', url: `/api/%74rpc/${PROCEDURE}%2C${PROCEDURE}?batch=1` },
  { name: 'a malformed escape', url: `/api/%7/trpc/${PROCEDURE}` },
  { name: 'an overlong UTF-8 escape', url: `/api/%c0%afrpc/${PROCEDURE}` },
];

/** What a plain HTML form on another site can send: multipart, no Origin (old browsers, privacy tools). */
const formPost = {
  method: 'POST' as const,
  headers: { 'content-type': 'multipart/form-data; boundary=x' },
  payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
};

/** A page on another site with fetch(): JSON, and its Origin. */
const crossSiteJson = {
  method: 'POST' as const,
  headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
  payload: '{}',
};

describe('the same-origin guard compares the path the router matched', () => {
  let store: TestStore;
  let app: FastifyInstance;

  beforeAll(async () => {
    store = await createTestStore();
    await createAdmin(store, ADMIN.email, ADMIN.password);
    app = await buildTestApp(store);
  });
  afterAll(async () => {
    await app.close();
    await store.cleanup();
  });

  /** Two sessions of the admin, new for each case so that one case's failure does not fail the next. */
  async function sessions() {
    return {
      attacker: await loginCookie(app, ADMIN.email, ADMIN.password),
      witness: await loginCookie(app, ADMIN.email, ADMIN.password),
    };
  }
  async function stillSignedIn(cookie: string): Promise<boolean> {
    const res = await app.inject({ url: '/api/trpc/admin.account.profile', headers: { cookie } });
    return res.statusCode === 200;
  }

  it.each(BYPASSES)('a form post to $name is refused and runs nothing', async ({ url }) => {
    const { attacker, witness } = await sessions();
    const res = await app.inject({ ...formPost, url, headers: { ...formPost.headers, cookie: attacker } });
    expect([400, 404, 415]).toContain(res.statusCode);
    expect(await stillSignedIn(witness)).toBe(true);
  });

  it.each(BYPASSES)('a cross-site fetch to $name is refused and runs nothing', async ({ url }) => {
    const { attacker, witness } = await sessions();
    const res = await app.inject({
      ...crossSiteJson,
      url,
      headers: { ...crossSiteJson.headers, cookie: attacker },
    });
    expect([400, 403, 404]).toContain(res.statusCode);
    expect(await stillSignedIn(witness)).toBe(true);
  });

  it('refuses the encoded path itself with 415 (form) and 403 (cross-site), not a 404 that hides it', async () => {
    const { attacker } = await sessions();
    const url = `/api/%74rpc/${PROCEDURE}`;
    const form = await app.inject({ ...formPost, url, headers: { ...formPost.headers, cookie: attacker } });
    expect(form.statusCode).toBe(415);
    const fetched = await app.inject({
      ...crossSiteJson,
      url,
      headers: { ...crossSiteJson.headers, cookie: attacker },
    });
    expect(fetched.statusCode).toBe(403);
  });

  it('still exempts the Stripe webhook route, and only it', async () => {
    const fromStripe = (url: string) =>
      app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', origin: 'https://stripe.example' },
        payload: '{}',
      });
    expect((await fromStripe('/api/stripe/webhook')).statusCode).not.toBe(403);
    expect((await fromStripe('/api/stripe/webhook/x')).statusCode).toBe(403);
  });

  it('the same call, same-origin and JSON, does sign the witness out (the control for the cases above)', async () => {
    const { attacker, witness } = await sessions();
    const res = await app.inject({
      method: 'POST',
      url: `/api/trpc/${PROCEDURE}`,
      headers: { 'content-type': 'application/json', cookie: attacker },
      payload: '{}',
    });
    expect(res.statusCode).toBe(200);
    expect(await stillSignedIn(witness)).toBe(false);
  });
});

describe('the Host header in production', () => {
  let store: TestStore | null = null;
  let app: FastifyInstance | null = null;
  afterEach(async () => {
    await app?.close();
    await store?.cleanup();
    app = null;
    store = null;
  });

  async function storeApp(env: Record<string, string>) {
    store = await createTestStore({ env });
    await createAdmin(store, ADMIN.email, ADMIN.password);
    const built = await buildTestApp(store);
    app = built;
    const own = { origin: new URL(store.config.publicUrl).origin };
    return {
      app: built,
      attacker: await loginCookie(built, ADMIN.email, ADMIN.password, own),
      witness: await loginCookie(built, ADMIN.email, ADMIN.password, own),
    };
  }

  const signOutEverywhere = (target: FastifyInstance, cookie: string, headers: Record<string, string>) =>
    target.inject({
      method: 'POST',
      url: `/api/trpc/${PROCEDURE}`,
      headers: { 'content-type': 'application/json', cookie, ...headers },
      payload: '{}',
    });
  const profile = (target: FastifyInstance, cookie: string) =>
    target.inject({ url: '/api/trpc/admin.account.profile', headers: { cookie } });

  it('refuses an Origin that matches a forged Host (or a DNS-rebound name) but not PUBLIC_URL', async () => {
    const s = await storeApp({ NODE_ENV: 'production', PUBLIC_URL: 'https://shop.example' });
    for (const host of ['evil.example', 'shop.example.evil.example', 'localhost.evil.example:3000']) {
      const res = await signOutEverywhere(s.app, s.attacker, { host, origin: `https://${host}` });
      expect(res.statusCode, host).toBe(403);
      const plain = await signOutEverywhere(s.app, s.attacker, { host, origin: `http://${host}` });
      expect(plain.statusCode, host).toBe(403);
    }
    expect((await profile(s.app, s.witness)).statusCode).toBe(200);
    // PUBLIC_URL's own Origin goes through, whatever Host a proxy in front passes on.
    const own = await signOutEverywhere(s.app, s.attacker, {
      host: '127.0.0.1:3000',
      origin: 'https://shop.example',
    });
    expect(own.statusCode).toBe(200);
    expect((await profile(s.app, s.witness)).statusCode).toBe(401);
  });

  it('accepts the loopback name the browser really used on this machine (npm start runs in production)', async () => {
    const s = await storeApp({ NODE_ENV: 'production', HOST: '127.0.0.1', PORT: '3000' });
    const res = await signOutEverywhere(s.app, s.attacker, {
      host: 'localhost:3000',
      origin: 'http://localhost:3000',
    });
    expect(res.statusCode).toBe(200);
  });

  it('outside production accepts the address the request was sent to (the Vite dev server proxies with its own Host)', async () => {
    const s = await storeApp({ NODE_ENV: 'development' });
    const res = await signOutEverywhere(s.app, s.attacker, {
      host: 'dev-box.lan:5173',
      origin: 'http://dev-box.lan:5173',
    });
    expect(res.statusCode).toBe(200);
  });
});
