import type { DbOrTx } from '../../db/database.js';
import { ALL_COLOURS, colourKey, variantLabel } from '../../shared/colours.js';
import type { AdminProduct } from './products.repository.js';

export type HistoryChange = { field: string; from: unknown; to: unknown };

// Colours and stock are told apart per colour and per count below, not as two whole blobs.
const IGNORED = new Set(['updatedAt', 'createdAt', 'priceMinor', 'colors', 'stock', 'colourStock']);

/** The fields whose values differ, in a form people can read ("price: 89.00 → 95.00"). */
export function diffProducts(
  before: AdminProduct | null,
  after: AdminProduct | null,
  /** The file names of the product's photos by URL ("back.jpg" for /media/uploads/c83e….webp). */
  photoFiles: ReadonlyMap<string, string> = new Map(),
): HistoryChange[] {
  if (!before || !after) return [];
  const changes: HistoryChange[] = [];
  for (const key of Object.keys(after) as Array<keyof AdminProduct>) {
    if (IGNORED.has(key)) continue;
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key]))
      changes.push({ field: key, from: before[key], to: after[key] });
  }
  const renamed = renamedColours(before.colors, after.colors);
  changes.push(...colourChanges(before.colors, after.colors, renamed, photoFiles));
  changes.push(...stockChanges(before, after, renamed));
  return changes;
}

type Colour = AdminProduct['colors'][number];

/** The last part of a photo's URL: enough to tell a product's photos apart in a history line. */
const photoName = (url: string, files: ReadonlyMap<string, string>) =>
  files.get(url) ?? url.split(/[/?#]/).filter(Boolean).at(-1) ?? url;
const photoNames = (urls: readonly string[], files: ReadonlyMap<string, string>) =>
  urls.length === 0 ? 'all photos' : urls.map((url) => photoName(url, files)).join(', ');

/**
 * Colours renamed in place: a colour that went away and one that came in at the same position, with
 * everything else equal or the name all that differs, are read as one colour renamed (the form renames
 * a colour in its row), so its stock and photos are said to move with it.
 */
function renamedColours(before: readonly Colour[], after: readonly Colour[]): Map<string, string> {
  const keptAfter = new Set(after.map((c) => colourKey(c.name)));
  const keptBefore = new Set(before.map((c) => colourKey(c.name)));
  const renamed = new Map<string, string>();
  for (const [i, old] of before.entries()) {
    const now = after[i];
    if (!now || keptAfter.has(colourKey(old.name)) || keptBefore.has(colourKey(now.name))) continue;
    renamed.set(old.name, now.name);
  }
  return renamed;
}

function colourChanges(
  before: readonly Colour[],
  after: readonly Colour[],
  renamed: ReadonlyMap<string, string>,
  files: ReadonlyMap<string, string>,
): HistoryChange[] {
  const changes: HistoryChange[] = [];
  const afterByKey = new Map(after.map((c) => [colourKey(c.name), c]));
  const beforeByKey = new Map(before.map((c) => [colourKey(c.name), c]));
  const renamedTo = new Set([...renamed.values()].map(colourKey));
  for (const old of before) {
    const newName = renamed.get(old.name);
    if (newName !== undefined) changes.push({ field: 'colour renamed', from: old.name, to: newName });
    else if (!afterByKey.has(colourKey(old.name)))
      changes.push({ field: 'colour removed', from: old.name, to: null });
  }
  for (const now of after)
    if (!beforeByKey.has(colourKey(now.name)) && !renamedTo.has(colourKey(now.name)))
      changes.push({ field: 'colour added', from: null, to: describeColour(now, files) });
  for (const now of after) {
    const oldName = [...renamed].find(([, to]) => to === now.name)?.[0];
    const old = beforeByKey.get(colourKey(oldName ?? now.name));
    if (!old) continue;
    const label = `colour ${now.name}`;
    if (old.name !== now.name && oldName === undefined)
      changes.push({ field: `${label} spelling`, from: old.name, to: now.name });
    if (old.price !== now.price)
      changes.push({
        field: `${label} price`,
        from: old.price || 'product price',
        to: now.price || 'product price',
      });
    if (old.hex !== now.hex)
      changes.push({ field: `${label} swatch`, from: old.hex ?? 'none', to: now.hex ?? 'none' });
    if (old.skuSuffix !== now.skuSuffix)
      changes.push({
        field: `${label} SKU suffix`,
        from: old.skuSuffix ?? 'none',
        to: now.skuSuffix ?? 'none',
      });
    if (JSON.stringify(old.images) !== JSON.stringify(now.images))
      changes.push({
        field: `${label} photos`,
        from: photoNames(old.images, files),
        to: photoNames(now.images, files),
      });
    if (JSON.stringify(old.sizeDetail) !== JSON.stringify(now.sizeDetail))
      changes.push({
        field: `${label} measurements`,
        from: old.sizeDetail ? 'own chart' : "the product's chart",
        to: now.sizeDetail ?? "the product's chart",
      });
  }
  const order = (list: readonly Colour[]) => list.map((c) => colourKey(renamed.get(c.name) ?? c.name));
  const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((k) => b.includes(k));
  const [was, is] = [order(before), after.map((c) => colourKey(c.name))];
  if (sameSet(was, is) && was.join('\u0000') !== is.join('\u0000'))
    changes.push({ field: 'colour order', from: before.map((c) => c.name), to: after.map((c) => c.name) });
  return changes;
}

/** "Teal (#1f7a6d, -TEAL, 95.00, 2 photos)": a colour added, said in one line. */
function describeColour(c: Colour, files: ReadonlyMap<string, string>): string {
  const parts = [
    c.hex,
    c.skuSuffix,
    c.price ? `price ${c.price}` : null,
    c.images.length > 0 ? `photos ${photoNames(c.images, files)}` : null,
    c.sizeDetail ? 'own chart' : null,
  ].filter((p): p is string => !!p);
  return parts.length > 0 ? `${c.name} (${parts.join(', ')})` : c.name;
}

/** One line per count that changed: "stock Teal / M: not tracked → 1", "stock All colours / S: 3 → 2". */
function stockChanges(
  before: AdminProduct,
  after: AdminProduct,
  renamed: ReadonlyMap<string, string>,
): HistoryChange[] {
  const pools = (p: AdminProduct, rename: ReadonlyMap<string, string>) => {
    const out = new Map<string, { label: string; counts: Record<string, number> }>();
    out.set(ALL_COLOURS, { label: 'All colours', counts: p.stock ?? {} });
    for (const [name, counts] of Object.entries(p.colourStock ?? {})) {
      const shown = rename.get(name) ?? name;
      out.set(colourKey(shown), { label: shown, counts });
    }
    return out;
  };
  const was = pools(before, renamed);
  const is = pools(after, new Map());
  const changes: HistoryChange[] = [];
  for (const key of new Set([...was.keys(), ...is.keys()])) {
    const a = was.get(key)?.counts ?? {};
    const b = is.get(key)?.counts ?? {};
    const label = is.get(key)?.label ?? was.get(key)?.label ?? key;
    for (const size of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (a[size] === b[size]) continue;
      changes.push({
        field: `stock ${variantLabel(label, size)}`,
        from: a[size] ?? 'not tracked',
        to: b[size] ?? 'not tracked',
      });
    }
  }
  return changes;
}

export async function recordHistory(
  db: DbOrTx,
  entry: {
    productId: string;
    title: string;
    action: 'create' | 'update' | 'delete';
    adminEmail: string;
    snapshot: AdminProduct;
    changes: HistoryChange[];
    now: Date;
  },
): Promise<void> {
  await db
    .insertInto('product_history')
    .values({
      product_id: entry.productId,
      product_title: entry.title,
      action: entry.action,
      admin_email: entry.adminEmail,
      snapshot: JSON.stringify(entry.snapshot),
      changes: JSON.stringify(entry.changes),
      created_at: entry.now.toISOString(),
    })
    .execute();
}

export async function productHistory(db: DbOrTx, productId: string) {
  const rows = await db
    .selectFrom('product_history')
    .select([
      'id',
      'action',
      'admin_email',
      'product_id',
      'product_title',
      'snapshot',
      'changes',
      'created_at',
    ])
    .where('product_id', '=', productId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(200)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    action: r.action,
    adminEmail: r.admin_email,
    productId: r.product_id,
    productTitle: r.product_title,
    snapshot: JSON.parse(r.snapshot) as unknown,
    changes: JSON.parse(r.changes) as HistoryChange[],
    createdAt: r.created_at,
  }));
}
