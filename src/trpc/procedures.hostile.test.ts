import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN,
  core,
  type ErrorBody,
  expectClearAnswer,
  fieldPaths,
  type HostileHarness,
  hostileHarness,
  maxLength,
  nestedJson,
  type Procedure,
  procedures,
  type Schema,
  sample,
  setAt,
} from '../test-support/hostile-input.js';
import { loginCookie } from '../test-support/test-store.js';

/**
 * Every tRPC procedure, found by walking appRouter (none listed by hand), called over HTTP with hostile
 * input: malformed JSON, wrong types, missing fields, every field set to values past its limits, deep
 * nesting, oversized bodies and batches. Each answer is a 4xx with a message a person can act on (or a 2xx
 * where the value happens to be fine), never a 500. Admin procedures are called signed in as the admin, so
 * the input reaches the procedure itself rather than stopping at the session check.
 */

type WithInput = Procedure & { input: Schema };

// Signing out (this session on the server, or everywhere) ends the test's own session: each gets sessions of
// its own below.
const SIGN_OUTS = ['admin.account.signOutEverywhere', 'auth.logout'];
const ordinary = procedures.filter((p) => !SIGN_OUTS.includes(p.path));
const withInput = ordinary.filter((p): p is WithInput => p.input !== null && fieldPaths(p.input).length > 0);

describe('every tRPC procedure under hostile input', () => {
  let h: HostileHarness;
  beforeAll(async () => {
    h = await hostileHarness();
  });
  beforeEach(async () => h.restoreFixtures());
  afterAll(async () => h.close());

  it('walks a router with procedures of both kinds, admin ones and inputs included', () => {
    expect(procedures.length).toBeGreaterThan(30);
    expect(procedures.some((p) => p.path.startsWith('admin.') && p.type === 'mutation')).toBe(true);
    expect(withInput.length).toBeGreaterThan(20);
  });

  it.each(ordinary)('$path: malformed JSON is refused with a 400 that says so', async (call) => {
    const texts = call.type === 'mutation' ? ['{"a":', '{', 'nul', '{"a":1}}', '\u0000', '[1,]'] : ['{', 'x'];
    for (const text of texts) {
      const res = await h.sendRaw(call, text);
      expectClearAnswer(res, `${call.path} ${JSON.stringify(text)}`);
      // A procedure without input never reads it; one with input must say the JSON is broken.
      if (call.input) expect(res.statusCode, text).toBe(400);
    }
    if (call.type === 'query') {
      const res = await h.app.inject({
        url: `/api/trpc/${call.path}?input=%E0%A4%A`,
        headers: { cookie: h.cookie },
      });
      expectClearAnswer(res, `${call.path} broken percent-encoding`);
    }
  });

  it.each(ordinary)(
    '$path: wrong top-level types, a missing input and deep nesting are 4xx',
    async (call) => {
      for (const input of [42, 'text', [], [{}], null, true, {}, undefined]) {
        expectClearAnswer(await h.send(call, input), `${call.path} ${JSON.stringify(input)}`);
      }
      for (const levels of [1000, 20_000]) {
        expectClearAnswer(await h.sendRaw(call, nestedJson(levels)), `${call.path} ${levels} levels`);
      }
    },
  );

  it.each(ordinary.filter((p) => p.type === 'mutation'))(
    '$path: a body past the 1 MB limit is a 413',
    async (call) => {
      const res = await h.send(call, { blob: 'x'.repeat(1024 * 1024 + 10) });
      expect(res.statusCode).toBe(413);
      expectClearAnswer(res, call.path);
    },
  );

  it.each(withInput)('$path: one past each max is refused against that field', async (call) => {
    const baseline = sample(call.input);
    for (const { path, leaf } of fieldPaths(call.input)) {
      const def = core(leaf)._zod.def;
      const max = maxLength(leaf);
      if (max === null || (def.type !== 'string' && def.type !== 'array')) continue;
      const element = def.element;
      const over =
        def.type === 'string' || !element
          ? 'x'.repeat(max + 1)
          : Array.from({ length: max + 1 }, (_, i) => {
              const one = sample(element);
              // Distinct entries, so de-duplicating lists cannot shrink them back under the limit.
              return typeof one === 'string' ? `${one}${i}` : one;
            });
      if (leaf.safeParse(over).success) continue;
      const res = await h.send(call, setAt(baseline, path, over));
      expect(res.statusCode, `${call.path} ${path.join('.')}: ${res.body.slice(0, 300)}`).toBe(400);
      expect((res.json() as ErrorBody).error.data?.zodError?.fieldErrors[String(path[0])]).toBeDefined();
    }
  });

  it('keeps to the batch limit and answers absurd batches with a 4xx', async () => {
    const queries = withInput.filter((p) => p.type === 'query').map((p) => p.path);
    const batch = (calls: string[], input: unknown) =>
      h.app.inject({
        url: `/api/trpc/${calls.join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`,
        headers: { cookie: h.cookie },
      });
    // Ten hostile calls at once (the batch limit): every one answered, none with a 5xx.
    const ten = Array.from({ length: 10 }, (_, i) => queries[i % queries.length] ?? 'site.settings');
    const garbage = Object.fromEntries(ten.map((_, i) => [i, i % 2 ? 'x'.repeat(50_000) : [null]]));
    const mixed = await batch(ten, garbage);
    expectClearAnswer(mixed, 'ten hostile calls');
    const entries = mixed.json() as Array<{ error?: { data: { httpStatus: number } } }>;
    expect(entries).toHaveLength(10);
    for (const entry of entries) expect(entry.error?.data.httpStatus).toBe(400);

    expectClearAnswer(await batch(Array(11).fill('site.settings'), {}), '11 calls');
    expectClearAnswer(await batch(Array(2000).fill('catalogue.search'), {}), '2000 calls');
    expectClearAnswer(await batch(['site.settings'], [1, 2, 3]), 'input not keyed by index');
    expectClearAnswer(await batch(['catalogue.search'], 'x'), 'input a string');
    const logins = await h.app.inject({
      method: 'POST',
      url: `/api/trpc/${Array(20).fill('auth.login').join(',')}?batch=1`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [i, { email: i }]))),
    });
    expect(logins.statusCode).toBe(400);
    expectClearAnswer(logins, 'twenty malformed sign-ins');
  });

  it.each(SIGN_OUTS)('%s: hostile input is ignored or refused, never a 500', async (path) => {
    const call = procedures.find((p) => p.path === path);
    if (!call) throw new Error(`${path} is gone from the router`);
    for (const text of ['{"a":', nestedJson(20_000), JSON.stringify({ x: 'x'.repeat(100_000) })]) {
      const own = await loginCookie(h.app, ADMIN.email, ADMIN.password);
      expectClearAnswer(await h.sendRaw(call, text, { cookie: own }), path);
    }
  });
});
