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

  it('agrees with JSON.stringify on any JSON-like value, walked or not', () => {
    const leaf = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double({ noNaN: false }),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
      array: fc.array(tie('node'), { maxLength: 5 }),
      object: fc.dictionary(fc.string(), tie('node'), { maxKeys: 5 }),
    })).node;
    fc.assert(
      fc.property(value, fc.boolean(), fc.boolean(), (v, walk, keep) => {
        // Some containers walked, some members kept: every mix must give JSON.stringify's bytes.
        const mark = (x: unknown): unknown => {
          if (typeof x !== 'object' || x === null) return x;
          for (const key of Object.keys(x)) Reflect.set(x, key, mark(Reflect.get(x, key)));
          if (keep && !Array.isArray(x)) return keepJson(x);
          return walk ? holdsKeptJson(x) : x;
        };
        const marked = mark(structuredClone(v));
        const expected = JSON.stringify(marked) ?? 'null';
        expect(toJsonBuffer(marked).toString()).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});
