/**
 * The rowids in `joined` (decimal, comma-separated, as the engines' group_concat and string_agg write them),
 * in their order. Parsed in place rather than split: a broad word lists tens of thousands.
 */
export function parseRowids(joined: string | null): Float64Array<ArrayBuffer> {
  if (!joined) return new Float64Array(0);
  let n = 1;
  for (let i = 0; i < joined.length; i++) if (joined.charCodeAt(i) === 44) n++;
  // Doubles, as the snapshot keeps rowids (rowidOfSlot): exact up to 2^53, SQLite's go to 2^63.
  const out = new Float64Array(n);
  let count = 0;
  let rowid = 0;
  let digits = 0;
  for (let i = 0; i <= joined.length; i++) {
    const c = i < joined.length ? joined.charCodeAt(i) : 44;
    if (c >= 48 && c <= 57) {
      rowid = rowid * 10 + (c - 48);
      digits++;
      continue;
    }
    if (c !== 44 || !Number.isSafeInteger(rowid))
      throw new Error(`not a list of rowids: ${joined.slice(0, 40)}`);
    if (digits > 0) out[count++] = rowid;
    rowid = 0;
    digits = 0;
  }
  return count === n ? out : out.subarray(0, count);
}
