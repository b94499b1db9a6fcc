import fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { appRouter } from '../trpc/router.js';
import { productRow } from './fixtures.js';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  fixedClock,
  loginCookie,
  type TestStore,
} from './test-store.js';

/**
 * Shared by the hostile-input tests of the tRPC procedures: the procedures found by walking appRouter, a
 * reader of their Zod input schemas (so every field of every input is reached without listing any by hand),
 * hostile values, and the check that an answer is a 4xx a person can act on, never a 500.
 */

// ------------------------------------------------------------------------------ Zod schema introspection

/** The parts of a Zod 4 schema definition read here; Zod's own types are per schema class. */
type Check = { _zod: { def: { check: string; maximum?: number; minimum?: number } } };
export type Schema = {
  _zod: {
    def: {
      type: string;
      shape?: Record<string, Schema>;
      innerType?: Schema;
      in?: Schema;
      out?: Schema;
      element?: Schema;
      valueType?: Schema;
      options?: Schema[];
      entries?: Record<string, string | number>;
      values?: unknown[];
      checks?: Check[];
    };
  };
  safeParse(value: unknown): { success: boolean };
};

type ProcedureDef = { _def: { type: 'query' | 'mutation' | 'subscription'; inputs: unknown[] } };
export type Procedure = { path: string; type: 'query' | 'mutation' | 'subscription'; input: Schema | null };

export const procedures: Procedure[] = Object.entries(
  appRouter._def.procedures as unknown as Record<string, ProcedureDef>,
).map(([path, p]) => ({ path, type: p._def.type, input: (p._def.inputs[0] ?? null) as Schema | null }));

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** The schema that decides what a value must look like: wrappers and transforms peeled off. */
export function core(schema: Schema): Schema {
  const def = schema._zod.def;
  if (WRAPPERS.has(def.type) && def.innerType) return core(def.innerType);
  if (def.type === 'pipe' && def.in && def.out) {
    return core(def.in._zod.def.type === 'transform' ? def.out : def.in);
  }
  return schema;
}

export function maxLength(schema: Schema): number | null {
  const found = (core(schema)._zod.def.checks ?? []).find((c) => c._zod.def.check === 'max_length');
  return found?._zod.def.maximum ?? null;
}

/** The fixture product and media item every baseline input points at, so calls reach the procedure's code. */
export const FIXTURE_ID = 'p1';
const FIXTURE_STAMP = fixedClock.now().toISOString();

/** Typical good values by field name. */
const HINTS: Record<string, unknown> = {
  email: 'owner@shop.example',
  price: '12.50',
  amount: '4.99',
  currency: 'usd',
  url: 'https://img.example.com/a.jpg',
  size: 'M',
  productId: FIXTURE_ID,
  id: FIXTURE_ID,
  // Every update happens at the fixed clock, so the fixture's stamp stays this one.
  expectedUpdatedAt: FIXTURE_STAMP,
};
/** Left out of baselines: an absent product id makes create pick a fresh one instead of a conflict. */
const OMITTED_OPTIONAL = new Set(['id']);
export const STRING_CANDIDATES = [FIXTURE_ID, 'usd', 'US', 'cv_x', 'https://img.example.com/a.jpg', 'x'];

/** A plausible, usually valid value for a schema (its first option, one array element, one record entry). */
export function sample(schema: Schema, key?: string): unknown {
  if (key && OMITTED_OPTIONAL.has(key) && schema._zod.def.type === 'optional') return undefined;
  const s = core(schema);
  const def = s._zod.def;
  switch (def.type) {
    case 'object':
      return Object.fromEntries(Object.entries(def.shape ?? {}).map(([k, v]) => [k, sample(v, k)]));
    case 'array':
      return def.element ? [sample(def.element)] : [];
    case 'record':
      return def.valueType ? { M: sample(def.valueType) } : {};
    case 'union':
      return def.options?.[0] ? sample(def.options[0], key) : null;
    case 'enum':
      return Object.values(def.entries ?? {})[0];
    case 'literal':
      return def.values?.[0];
    case 'boolean':
      return true;
    case 'number':
      return [7, 1, 0].find((n) => s.safeParse(n).success) ?? 1;
    case 'string': {
      const hinted = key ? HINTS[key] : undefined;
      if (hinted !== undefined && s.safeParse(hinted).success) return hinted;
      return STRING_CANDIDATES.find((c) => s.safeParse(c).success) ?? 'x';
    }
    default:
      return null;
  }
}

export type Path = Array<string | number>;

/** Every place in an input where a value goes: object keys, the first array element, a record entry. */
export function fieldPaths(schema: Schema, prefix: Path = []): Array<{ path: Path; leaf: Schema }> {
  const def = core(schema)._zod.def;
  const here = prefix.length > 0 ? [{ path: prefix, leaf: schema }] : [];
  if (def.type === 'object') {
    return [...here, ...Object.entries(def.shape ?? {}).flatMap(([k, v]) => fieldPaths(v, [...prefix, k]))];
  }
  if (def.type === 'array' && def.element) return [...here, ...fieldPaths(def.element, [...prefix, 0])];
  if (def.type === 'record' && def.valueType)
    return [...here, ...fieldPaths(def.valueType, [...prefix, 'M'])];
  return here;
}

export function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(root)) {
    const copy = [...root];
    copy[head as number] = setAt(copy[head as number], rest, value);
    return copy;
  }
  const obj = root && typeof root === 'object' ? (root as Record<string, unknown>) : {};
  return { ...obj, [head as string]: setAt(obj[head as string], rest, value) };
}

/** JSON text nested `levels` deep (built as text: JSON.stringify itself overflows the stack on it). */
export function nestedJson(levels: number): string {
  return `${'{"a":['.repeat(levels)}1${']}'.repeat(levels)}`;
}

/** Values that are wrong, or right but nasty, for almost any field; the long ones are past every max. */
export const HOSTILE_VALUES: Array<[string, unknown]> = [
  ['null', null],
  ['a boolean', true],
  ['a number', 42],
  ['a negative fraction', -1.5],
  ['a huge number', 1e308],
  ['an unsafe integer', 2 ** 53 + 2],
  ['an empty string', ''],
  ['a NUL', '\u0000'],
  ['a NUL-led string', '\u0000x'],
  ['a lone surrogate', '\ud800'],
  ['a NUL-led URL', '\u0000https://img.example.com/a.jpg'],
  ['a URL with control characters', 'https://img.example.com/\u0001\u001f\u007f.jpg'],
  ['FTS operators and quotes', '"kurta" OR title:* NEAR(a b) ^x -y \'\''],
  ['SQL', "'; DROP TABLE products; --"],
  ['a 100k string', 'x'.repeat(100_000)],
  ['a long emoji string', '😀'.repeat(20_000)],
  ['a 5000-item array', Array.from({ length: 5000 }, () => 'x')],
  ['an array of objects', Array.from({ length: 300 }, () => ({}))],
  ['an empty object', {}],
  ['300 levels of nesting', JSON.parse(nestedJson(300))],
  ['a __proto__ key', JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}')],
];

// --------------------------------------------------------------------------------------------- answers

export type ErrorBody = {
  error: {
    message: string;
    data?: {
      code?: string;
      httpStatus?: number;
      requestId?: string | null;
      zodError?: { formErrors: string[]; fieldErrors: Record<string, string[] | undefined> } | null;
    };
  };
};

export const GENERIC_MESSAGE = 'Something went wrong on our side. Please try again.';

/** A success, or a 4xx whose JSON body says what was wrong in words: never a 5xx, never the generic text. */
export function expectClearAnswer(res: LightMyRequestResponse, what: string): void {
  expect(res.statusCode, `${what}: ${res.body.slice(0, 400)}`).toBeLessThan(500);
  if (res.statusCode < 400) return;
  const body = res.json() as ErrorBody | ErrorBody[] | { message?: string };
  const errors = Array.isArray(body) ? body.map((b) => b.error) : 'error' in body ? [body.error] : [body];
  for (const error of errors) {
    const message = typeof error === 'string' ? error : (error as { message?: string }).message;
    expect(typeof message === 'string' && message.length > 0, `${what}: message in ${res.body}`).toBe(true);
    expect(message).not.toBe(GENERIC_MESSAGE);
    const zod = (error as ErrorBody['error']).data?.zodError;
    if (zod) {
      const messages = [...zod.formErrors, ...Object.values(zod.fieldErrors).flat()];
      expect(messages.length, `${what}: validation messages`).toBeGreaterThan(0);
    }
  }
}

// ----------------------------------------------------------------------------------- the app and calls

export type HostileHarness = {
  store: TestStore;
  app: FastifyInstance;
  cookie: string;
  /** Calls a procedure the way the tRPC client does: GET ?input= for queries, a JSON POST for mutations. */
  send(call: Procedure, input: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** The same with the input as raw text (malformed or too deep for JSON.stringify). */
  sendRaw(call: Procedure, text: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** Puts the fixture product and its media item back (hostile calls may have deleted or changed them). */
  restoreFixtures(): Promise<void>;
  close(): Promise<void>;
};

export const ADMIN = { email: 'owner@shop.example', password: 'correct horse battery' };

export async function hostileHarness(): Promise<HostileHarness> {
  // High sign-in limits: hostile auth.login calls must not lock the test's own sign-ins out.
  const store = await createTestStore({
    env: { LOGIN_MAX_ATTEMPTS_PER_IP: '100000', LOGIN_MAX_FAILURES_PER_ACCOUNT: '100000' },
  });
  await createAdmin(store, ADMIN.email, ADMIN.password);
  const app = await buildTestApp(store);
  const cookie = await loginCookie(app, ADMIN.email, ADMIN.password);
  const sendRaw = (call: Procedure, text: string, headers: Record<string, string> = {}) =>
    call.type === 'mutation'
      ? app.inject({
          method: 'POST',
          url: `/api/trpc/${call.path}`,
          headers: { 'content-type': 'application/json', cookie, ...headers },
          payload: text,
        })
      : app.inject({
          method: 'GET',
          url: `/api/trpc/${call.path}${text === '' ? '' : `?input=${encodeURIComponent(text)}`}`,
          headers: { cookie, ...headers },
        });
  const restoreFixtures = async () => {
    const db = store.handle.db;
    await db
      .insertInto('products')
      .values(productRow({ id: FIXTURE_ID, title: 'Mint Lawn Kurta', updated_at: FIXTURE_STAMP }))
      .onConflict((oc) => oc.doNothing())
      .execute();
    await db
      .insertInto('media')
      .values({
        id: FIXTURE_ID,
        product_id: FIXTURE_ID,
        url: 'https://img.example.com/a.jpg',
        file_name: 'a.jpg',
        media_type: 'image',
        display_order: 0,
        alt_text: null,
        created_at: FIXTURE_STAMP,
        updated_at: FIXTURE_STAMP,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
  };
  await restoreFixtures();
  return {
    store,
    app,
    cookie,
    send: (call, input, headers) => sendRaw(call, input === undefined ? '' : JSON.stringify(input), headers),
    sendRaw,
    restoreFixtures,
    async close() {
      await app.close();
      await store.cleanup();
    },
  };
}

// ---------------------------------------------------------------------------------- field by field

/** Procedures with an input that has fields; signing out everywhere would end the harness's own session. */
export const proceduresWithFields = procedures.filter(
  (p): p is Procedure & { input: Schema } =>
    p.input !== null && p.path !== 'admin.account.signOutEverywhere' && fieldPaths(p.input).length > 0,
);

/**
 * Sets each field of an otherwise good input (one that reaches the procedure's own code) to each hostile
 * value in turn: never a 5xx, and a value the field itself refuses is reported against that field, so a form
 * can show the message next to it.
 */
export async function everyFieldWithEveryHostileValue(
  h: HostileHarness,
  call: Procedure & { input: Schema },
): Promise<void> {
  const baseline = sample(call.input);
  for (const { path, leaf } of fieldPaths(call.input)) {
    for (const [name, value] of HOSTILE_VALUES) {
      const what = `${call.path} ${path.join('.')} = ${name}`;
      const res = await h.send(call, setAt(baseline, path, value));
      expectClearAnswer(res, what);
      const zod = res.statusCode === 400 ? (res.json() as ErrorBody).error.data?.zodError : null;
      if (zod && !leaf.safeParse(value).success) {
        expect(zod.fieldErrors[String(path[0])], `${what}: ${JSON.stringify(zod)}`).toBeDefined();
      }
    }
  }
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

// ------------------------------------------------------------------------------- generated inputs

/** A value for a schema: usually shaped like it (edges of its limits included), sometimes anything. */
export function arbitraryFor(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const def = core(schema)._zod.def;
  const anything = fc.oneof(
    fc.constantFrom(null, true, 0, -1, 1.5, 2 ** 53 + 2, '', '\u0000', '\ud800', [], {}),
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.integer(),
  );
  const max = maxLength(schema);
  let shaped: fc.Arbitrary<unknown>;
  switch (def.type) {
    case 'object':
      shaped = fc.record(
        Object.fromEntries(Object.entries(def.shape ?? {}).map(([k, v]) => [k, arbitraryFor(v, depth + 1)])),
        { requiredKeys: [] },
      );
      break;
    case 'array':
      shaped = fc.array(arbitraryFor(def.element as Schema, depth + 1), {
        maxLength: Math.min((max ?? 10) + 1, 12),
      });
      break;
    case 'record':
      shaped = fc.dictionary(
        fc.string({ unit: 'binary', maxLength: 25 }),
        arbitraryFor(def.valueType as Schema, depth + 1),
        { maxKeys: 4 },
      );
      break;
    case 'union':
      shaped = fc.oneof(...(def.options ?? []).map((o) => arbitraryFor(o, depth + 1)));
      break;
    case 'enum':
      shaped = fc.oneof(fc.constantFrom(...Object.values(def.entries ?? { x: 'x' })), fc.string());
      break;
    case 'literal':
      shaped = fc.oneof(fc.constantFrom(...(def.values ?? [null])), fc.integer());
      break;
    case 'boolean':
      shaped = fc.boolean();
      break;
    case 'number':
      shaped = fc.oneof(
        fc.integer({ min: -2, max: 1_000_002 }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.constantFrom(0, 7, 30, 10_000, 10_001, Number.MAX_SAFE_INTEGER),
      );
      break;
    case 'string':
      shaped = fc.oneof(
        fc.string({ unit: 'binary', maxLength: Math.min(max ?? 40, 60) }),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
        fc.constantFrom(...STRING_CANDIDATES, '  ', '\u0000x', 'a\u0000b', '\ud800x', '"*" OR NOT'),
        fc.constant(max === null ? 'x'.repeat(3000) : 'y'.repeat(max + 1)),
      );
      break;
    default:
      shaped = anything;
  }
  return depth > 6
    ? anything
    : fc.oneof({ weight: 6, arbitrary: shaped }, { weight: 1, arbitrary: anything });
}
