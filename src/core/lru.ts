/**
 * A Map used as a least-recently-used cache: its insertion order is the eviction order, so a hit moves to
 * the end and the first key goes when the map outgrows its bound.
 */
export function lruGet<K, V>(map: Map<K, V>, key: K): V | undefined {
  const value = map.get(key);
  if (value !== undefined) {
    map.delete(key);
    map.set(key, value);
  }
  return value;
}

export function lruSet<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value as K);
}

/**
 * A bounded cache of what was used lately that moves nothing on a hit: a LRU Map's delete and set per hit
 * cost 3 % of a listing's CPU for its 24 product cards (a cold hash table, holes rehashed). New and used
 * entries go to the young generation; when a new key would take it past half the bound the old one is
 * dropped whole and the young one becomes old. Holds at most `max` entries; one is kept until at least
 * half of `max` other keys have been set or used since it was, and a set of at most half of `max` keys is
 * held whole in the young generation.
 */
export class GenerationCache<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();

  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    const young = this.young.get(key);
    if (young !== undefined) return young;
    const old = this.old.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  has(key: K): boolean {
    return this.young.has(key) || this.old.has(key);
  }

  set(key: K, value: V): void {
    // Turned over only for a key that would take young past half the bound, so a set of keys that fits in
    // it stays there: turning over when it was full made a set of exactly half the bound (a 10,000-product
    // catalogue's cards) move every key back from old at each use, a Map insert per card.
    if (this.young.size >= Math.floor(this.max / 2) && !this.young.has(key)) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }
}

/**
 * GenerationCache's rule for small whole-number keys (a snapshot's slots), in arrays: a lookup is an index,
 * not a hash of a key that is cold in the CPU's caches (24 Map lookups by product id were 3 % of a listing
 * answered from memory). Each generation is an array as long as the key space, so keys should be dense.
 */
export class SlotGenerationCache<V> {
  private young: Array<V | undefined>;
  private old: Array<V | undefined> = [];
  private youngCount = 0;

  constructor(
    private readonly max: number,
    private readonly slots: number,
  ) {
    this.young = new Array<V | undefined>(slots);
  }

  get(slot: number): V | undefined {
    const young = this.young[slot];
    if (young !== undefined) return young;
    const old = this.old[slot];
    if (old !== undefined) this.set(slot, old);
    return old;
  }

  /** Whether `slot` is held, without using it (as GenerationCache.has). */
  has(slot: number): boolean {
    return this.young[slot] !== undefined || this.old[slot] !== undefined;
  }

  set(slot: number, value: V): void {
    if (this.young[slot] === undefined) {
      if (this.youngCount >= Math.floor(this.max / 2)) {
        this.old = this.young;
        this.young = new Array<V | undefined>(this.slots);
        this.youngCount = 0;
      }
      this.youngCount += 1;
    }
    this.young[slot] = value;
  }
}
