import type { ColourOption } from '../shared/colours.js';
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

/** The colour variants of a products row: colour_options as written, any hand-edited oddity left out. */
export function colourOptionsOf(text: string): ColourOption[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  const isText = (v: unknown): v is string => typeof v === 'string';
  return value.flatMap((raw: unknown): ColourOption[] => {
    if (!raw || typeof raw !== 'object') return [];
    const c = raw as Record<string, unknown>;
    if (!isText(c.name)) return [];
    const detail = c.sizeDetail;
    return [
      {
        name: c.name,
        hex: isText(c.hex) ? c.hex : null,
        skuSuffix: isText(c.skuSuffix) ? c.skuSuffix : null,
        priceMinor: Number.isSafeInteger(c.priceMinor) ? (c.priceMinor as number) : null,
        images: Array.isArray(c.images) ? c.images.filter(isText) : [],
        sizeDetail:
          detail && typeof detail === 'object' && !Array.isArray(detail)
            ? (detail as Record<string, Record<string, string>>)
            : null,
      },
    ];
  });
}

/**
 * A size chart (products.size_detail, a colour's sizeDetail) as the fit finder reads it: size → column → text.
 * Accepts the column's text or an already parsed value; a row or cell that is not text is left out.
 */
export function sizeDetailOf(value: unknown): Record<string, Record<string, string>> {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return {};
    }
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
  const out: Record<string, Record<string, string>> = {};
  for (const [size, cells] of Object.entries(parsed)) {
    if (!cells || typeof cells !== 'object' || Array.isArray(cells)) continue;
    const row: Record<string, string> = {};
    for (const [name, cell] of Object.entries(cells)) if (typeof cell === 'string') row[name] = cell;
    out[size] = row;
  }
  return out;
}
