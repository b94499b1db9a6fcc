/** JSON text columns are written by our own code, but a hand-edited row must not crash a page: fall back. */
export function parseJsonArray(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function parseJsonRecord<T>(text: string, isValue: (v: unknown) => v is T): Record<string, T> {
  try {
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    const out: Record<string, T> = {};
    for (const [k, v] of Object.entries(value)) if (isValue(v)) out[k] = v;
    return out;
  } catch {
    return {};
  }
}
