import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { holdsKeptJson, keepJson, toJsonBuffer } from './prebuilt-json.js';

const card = () => ({
  id: 'p1',
  title: 'Mirror Work Linen Maxi — Rust',
  sizes: ['S', 'M'],
  image: { url: '/media/a.svg', alt: 'Maxi, view 1' },
  soldOut: false,
});

/** A deep copy of arrays and plain objects that keeps everything else (dates, functions) as it is. */
function copy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(copy);
  if (typeof v !== 'object' || v === null || Object.getPrototypeOf(v) !== Object.prototype) return v;
  if ('toJSON' in v) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copy(x)]));
}

describe('JSON put together from kept parts', () => {
  it('writes what JSON.stringify writes, kept parts and all', () => {
    const kept = keepJson(card());
    const page = holdsKeptJson({
      items: holdsKeptJson([kept, { ...kept, soldOut: true }, kept]),
      total: 3,
      nextOffset: null,
      skipped: undefined,
      facets: { size: [{ value: 'M', count: 2 }] },
    });
    const envelope = holdsKeptJson([
      holdsKeptJson({ result: holdsKeptJson({ data: page }) }),
      holdsKeptJson({ result: holdsKeptJson({ data: undefined }) }),
    ]);
    const bytes = toJsonBuffer(envelope);
    expect(bytes.toString()).toBe(JSON.stringify(envelope));
    expect(bytes.equals(Buffer.from(JSON.stringify(envelope)))).toBe(true);
  });

  it('uses the kept bytes rather than writing the value again', () => {
    const kept = keepJson(card());
    // The one way to tell: the bytes kept at the start are what is sent, and the value cannot drift from
    // them because it is frozen, deep down.
    expect(Object.isFrozen(kept) && Object.isFrozen(kept.sizes) && Object.isFrozen(kept.image)).toBe(true);
    expect(() => {
      (kept.sizes as string[]).push('XL');
    }).toThrow(TypeError);
    expect(toJsonBuffer(holdsKeptJson([kept])).toString()).toBe(`[${JSON.stringify(card())}]`);
    // And the card is not written again: JSON.stringify never sees it.
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      toJsonBuffer(holdsKeptJson({ items: holdsKeptJson([kept, kept]) }));
      expect(stringify.mock.calls.filter(([v]) => v === kept)).toEqual([]);
    } finally {
      stringify.mockRestore();
    }
  });

  it('agrees with JSON.stringify on any JSON-like value, walked, kept or neither at any depth', () => {
    const noJson = { toJSON: () => undefined };
    const leaf = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double({ noNaN: false }),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      // Values JSON.stringify treats specially: left out of objects, null in arrays, or their toJSON.
      fc.constant(noJson),
      fc.constant(() => 1),
      fc.date({ noInvalidDate: true }),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
      array: fc.array(tie('node'), { maxLength: 5 }),
      object: fc.dictionary(fc.string(), tie('node'), { maxKeys: 5 }),
    })).node;
    // For each container met, in order: kept, walked or left alone.
    const tape = fc.array(fc.constantFrom('keep', 'walk', 'plain'), { minLength: 1, maxLength: 40 });
    fc.assert(
      fc.property(value, tape, (v, choices) => {
        let at = 0;
        const mark = (x: unknown): unknown => {
          if (typeof x !== 'object' || x === null || x === noJson || x instanceof Date) return x;
          for (const key of Object.keys(x)) Reflect.set(x, key, mark(Reflect.get(x, key)));
          const choice = choices[at++ % choices.length];
          if (choice === 'keep') return keepJson(x);
          return choice === 'walk' ? holdsKeptJson(x) : x;
        };
        const marked = mark(copy(v));
        const expected = JSON.stringify(marked) ?? 'null';
        expect(toJsonBuffer(marked).toString()).toBe(expected);
      }),
      { numRuns: 400 },
    );
  });
});
