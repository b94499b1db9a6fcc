/**
 * Sets of product slots, as the facet snapshot keeps them: a value held by many products is a bitset (one
 * bit per slot), a rare one a sorted list of slots, so memory stays near 4 bytes per facet row whatever
 * the number of distinct tags.
 */
export type SlotSet = { bits: Uint32Array } | { list: Uint32Array };

/** Sorted slots as the cheaper set for `capacity` slots. */
export function toSlotSet(slots: number[], capacity: number): SlotSet {
  // A bitset costs capacity/8 bytes, a list 4 bytes a slot: the bitset wins above capacity/32.
  if (slots.length * 32 < capacity) return { list: Uint32Array.from(slots) };
  const bits = new Uint32Array(capacity >>> 5);
  for (const s of slots) setBit(bits, s);
  return { bits };
}

export function setBit(bits: Uint32Array, slot: number): void {
  bits[slot >>> 5] = (bits[slot >>> 5] ?? 0) | (1 << (slot & 31));
}

export function clearBit(bits: Uint32Array, slot: number): void {
  bits[slot >>> 5] = (bits[slot >>> 5] ?? 0) & ~(1 << (slot & 31));
}

export function hasBit(bits: Uint32Array | undefined, slot: number): boolean {
  return bits !== undefined && (((bits[slot >>> 5] ?? 0) >>> (slot & 31)) & 1) === 1;
}

/** Whether a set holds a slot (lists are kept sorted). */
export function holds(set: SlotSet, slot: number): boolean {
  if ('bits' in set) return hasBit(set.bits, slot);
  let lo = 0;
  let hi = set.list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = set.list[mid] ?? 0;
    if (v === slot) return true;
    if (v < slot) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

export function union(a: Uint32Array, set: SlotSet): void {
  if ('bits' in set) {
    for (let i = 0; i < a.length; i++) a[i] = (a[i] ?? 0) | (set.bits[i] ?? 0);
  } else {
    for (const s of set.list) setBit(a, s);
  }
}

/** The slots of `a` that `b` holds too, written into `out` (a new bitset unless given). */
export function intersect(
  a: Uint32Array,
  b: Uint32Array,
  out: Uint32Array = new Uint32Array(a.length),
): Uint32Array {
  for (let i = 0; i < a.length; i++) out[i] = (a[i] ?? 0) & (b[i] ?? 0);
  return out;
}

/** The slots of `a` that `b` does not hold, written into `out` (a new bitset unless given). */
export function andNot(
  a: Uint32Array,
  b: Uint32Array,
  out: Uint32Array = new Uint32Array(a.length),
): Uint32Array {
  for (let i = 0; i < a.length; i++) out[i] = (a[i] ?? 0) & ~(b[i] ?? 0);
  return out;
}

export function popcount32(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** How many slots a bitset holds. */
export function countBits(mask: Uint32Array): number {
  let n = 0;
  for (let i = 0; i < mask.length; i++) n += popcount32(mask[i] ?? 0);
  return n;
}

/** Calls `visit` with each slot a bitset holds, in ascending order. */
export function eachSlot(mask: Uint32Array, visit: (slot: number) => void): void {
  for (let i = 0; i < mask.length; i++) {
    let word = mask[i] ?? 0;
    while (word !== 0) {
      const bit = 31 - Math.clz32(word & -word);
      word &= word - 1;
      visit((i << 5) + bit);
    }
  }
}

/** Calls `visit` with each slot a bitset holds, in descending order. */
export function eachSlotDescending(mask: Uint32Array, visit: (slot: number) => void): void {
  for (let i = mask.length - 1; i >= 0; i--) {
    let word = mask[i] ?? 0;
    while (word !== 0) {
      const bit = 31 - Math.clz32(word);
      word &= ~(1 << bit);
      visit((i << 5) + bit);
    }
  }
}
