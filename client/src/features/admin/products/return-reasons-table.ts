import { RETURN_REASONS } from '@shared/returns';

export type ReasonCount = { size: string | null; reason: string; count: number };

/** The sizes (rows), the reasons that occur (columns, in their usual order) and each cell's count. */
export function reasonGrid(rows: readonly ReasonCount[]) {
  const sizes = [...new Set(rows.map((r) => r.size ?? ''))];
  const order = (reason: string) => {
    const at = (RETURN_REASONS as readonly string[]).indexOf(reason);
    return at === -1 ? RETURN_REASONS.length : at;
  };
  const reasons = [...new Set(rows.map((r) => r.reason))].sort((a, b) => order(a) - order(b));
  const counts = new Map<string, number>();
  for (const r of rows) {
    const key = `${r.size ?? ''}\u0000${r.reason}`;
    counts.set(key, (counts.get(key) ?? 0) + r.count);
  }
  const count = (size: string, reason: string) => counts.get(`${size}\u0000${reason}`) ?? 0;
  return { sizes, reasons, count };
}

/** The one cell that stands out ("too small in M: 9 of 12"), or null when nothing came back. */
export function topReason(rows: readonly ReasonCount[]): (ReasonCount & { of: number }) | null {
  const of = rows.reduce((n, r) => n + r.count, 0);
  if (of === 0) return null;
  const top = [...rows].sort((a, b) => b.count - a.count)[0];
  return top ? { ...top, of } : null;
}
