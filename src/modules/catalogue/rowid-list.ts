/**
 * The rowids in `joined` (decimal, comma-separated, as the engines' group_concat and string_agg write them),
 * in their order. Parsed in place rather than split: a broad word lists tens of thousands.
 */
export function parseRowids(joined: string | null): Uint32Array<ArrayBuffer> {
  if (!joined) return new Uint32Array(0);
  let n = 1;
  for (let i = 0; i < joined.length; i++) if (joined.charCodeAt(i) === 44) n++;
  const out = new Uint32Array(n);
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
    if (c !== 44) throw new Error(`not a list of rowids: ${joined.slice(0, 40)}`);
    if (digits > 0) out[count++] = rowid;
    rowid = 0;
    digits = 0;
  }
  return count === n ? out : out.subarray(0, count);
}
