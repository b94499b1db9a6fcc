/**
 * "1 file", "2 files", "0 copies": operators read these lines, and "1 files" or "copy(ies)" reads as a
 * careless tool. `many` is for words that do not just take an s.
 */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
