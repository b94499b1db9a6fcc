import type { CompiledQuery } from 'kysely';
import { GenerationCache, SlotGenerationCache } from '../../core/lru.js';
import { keepJson, keepJsonWith } from '../../core/prebuilt-json.js';
import type { DbOrTx } from '../../db/database.js';
import { engineOf } from '../../db/engine-sql.js';
import { parseJsonArray } from '../../db/json-columns.js';
import type { CardColour, ImageRef, ProductCard } from '../../shared/catalogue.js';
import { parseVariants, responsiveFields } from '../../shared/responsive-image.js';
import type { SoldOutStock } from '../stock/sold-out.js';
import { markCard } from '../stock/stock.repository.js';
import { runningSalesOf, withSalePrices } from './card-sale.js';
import { type CardRow, cardColumns, toCard } from './catalogue.repository.js';
import { colourKeyOf } from './colour-key-memo.js';
import { type FacetSnapshot, idOfSlot } from './snapshot/facet-snapshot.js';

/**
 * Product cards of one storefront revision, by id. Shoppers' listings seldom repeat, their cards far more
 * (the first pages of many filters share products), and a page of 24 cards read 0.6-1.3 ms at 100,000
 * products: each card is read once per revision. Everything a card shows (the product, its media, the
 * settings) moves the revision when it changes, which drops them all. So does a size selling out or coming
 * back: the cards by slot (the snapshot's listings) are kept with their sold-out sizes, read from the snapshot
 * when the card is, so a listing adds nothing per card for them; the cards by id (SQL's listings, while a
 * first snapshot loads) are kept without, and marked per page (withSoldOut).
 */
// A card takes about 380 bytes of heap (measured on the bench's catalogue) and its kept JSON about 500 bytes
// more outside it: 50,000 are about 45 MB. A catalogue of up to 25,000 products has every card read once per
// revision (the caches keep the last half of their bound whatever happens), a larger one its cards in use.
// At 100,000 products a bound of 20,000 left half the cache-miss stream's listings reading cards (0.36 ms a
// page, a ninth of the main thread); 50,000 served 12 % more of them (4 runs each, side by side).
const CARDS = 50_000;
const caches = new WeakMap<object, { revision: string; cards: GenerationCache<string, ProductCard> }>();

/** The cards of `ids` that exist, in the ids' order. */
export async function cardsOf(db: DbOrTx, revision: string, ids: string[]): Promise<ProductCard[]> {
  let cache = caches.get(db);
  // A request that read the revision before a change and ran after it (it waited its turn) reads its cards
  // as they are now into a map of its own, rather than drop every card of the newer revision.
  const late = cache !== undefined && cache.revision !== revision && isOlder(revision, cache.revision);
  if (!late && (!cache || cache.revision !== revision)) {
    cache = { revision, cards: new GenerationCache(CARDS) };
    caches.set(db, cache);
    // SQL answers this revision's listings (its snapshot is loading): cards by slot of an older one go. Those
    // of this revision stay: the snapshot lists it, and only a few cards are asked by id beside it (related
    // products); dropping them there would drop the listings' cards at every such ask.
    const bySlot = slotCaches.get(db);
    if (bySlot && isOlder(bySlot.revision, revision)) slotCaches.delete(db);
  }
  const cards = late || !cache ? new GenerationCache<string, ProductCard>(CARDS) : cache.cards;
  // One lookup per id: on a listing's path the card map's lookups are cold in the CPU's caches.
  const found = ids.map((id) => cards.get(id));
  const missing = ids.filter((_, i) => found[i] === undefined);
  if (missing.length > 0) {
    const read = await readKeptCards(db, revision, missing);
    for (const [id, card] of read) cards.set(id, card);
    for (const [i, id] of ids.entries()) found[i] ??= read.get(id);
  }
  return found.filter((card) => card !== undefined);
}

/**
 * The cards of `ids` that exist, by id, read now: after the request's revision was read, so a change in
 * between makes them newer than it, never older. Each marked with its sold-out sizes from `soldOut` (by
 * product id), when given. With their JSON (a card is sent in many listings, prebuilt-json.ts).
 */
async function readKeptCards(
  db: DbOrTx,
  revision: string,
  ids: string[],
  soldOut?: Map<string, SoldOutStock>,
): Promise<Map<string, ProductCard>> {
  const read = new Map<string, ProductCard>();
  // An empty page (a late request's, say) reads nothing: `IN ()` is no SQL on PostgreSQL.
  if (ids.length === 0) return read;
  const [rows, running] = await Promise.all([readCards(db, ids), runningSalesOf(db, revision)]);
  // Priced here, once per card read (the card is kept with its JSON): a listing adds nothing for sales.
  const cards = rows.map((row) => {
    const card = toCard(row);
    return running ? withSalePrices(card, parseJsonArray(row.tags), running) : card;
  });
  // A colour's photo is read with the card only when its swatch is that photo (a colour without a swatch
  // colour); the others only show on a colour filter's cards, which read them then (withColourPhotos).
  const wanted = colourPhotoWants(cards);
  const now: PhotoWants = new Map();
  for (const card of cards) {
    const list = wanted.get(card.id);
    if (list && card.colours?.some((c) => c.image !== undefined && c.hex === undefined))
      now.set(card.id, list);
  }
  const photos = now.size > 0 ? await colourPhotos(db, now, cards) : null;
  for (const card of cards) {
    const own = photos?.get(card.id);
    const base = swatchesAsShown(own ? withSwatchPhotos(card, own) : card);
    const kept = keepJson(markCardStock(base, soldOut?.get(card.id)));
    if (own) colourPhotosOf.set(kept, own);
    else {
      const later = wanted.get(card.id);
      if (later) photosToRead.set(kept, later);
    }
    read.set(card.id, kept);
  }
  return read;
}

/** The first photo of each colour of a card that names one, by product id: what colourPhotos reads. */
type PhotoWants = Map<string, ColourPhotoWant[]>;
type ColourPhotoWant = { key: string; name: string; url: string };

function colourPhotoWants(cards: readonly ProductCard[]): PhotoWants {
  const wanted: PhotoWants = new Map();
  for (const card of cards) {
    const list = (card.colours ?? []).flatMap((c) =>
      c.image ? [{ key: colourKeyOf(c.name), name: c.name, url: c.image }] : [],
    );
    if (list.length > 0) wanted.set(card.id, list);
  }
  return wanted;
}

/**
 * The photos `wanted` names, as a card shows them (with their web variants when uploaded ones): product id
 * -> colour key -> photo. One read for all of them.
 */
async function colourPhotos(
  db: DbOrTx,
  wanted: PhotoWants,
  cards: readonly ProductCard[],
): Promise<Map<string, Map<string, ColourPhoto>>> {
  const media = await db
    .selectFrom('media')
    .select(['product_id', 'url', 'alt_text', 'width', 'height', 'variants'])
    .where('product_id', 'in', [...wanted.keys()])
    .where('media_type', '=', 'image')
    .where('url', 'in', [...new Set([...wanted.values()].flatMap((l) => l.map((w) => w.url)))])
    .execute();
  const titles = new Map(cards.map((c) => [c.id, c.title]));
  const out = new Map<string, Map<string, ColourPhoto>>();
  for (const [id, list] of wanted) {
    const byColour = new Map<string, ColourPhoto>();
    for (const w of list) {
      const m = media.find((r) => r.product_id === id && r.url === w.url);
      const variants = parseVariants(m?.variants);
      // The swatch is a few pixels wide: the smallest web variant, when there is one, rather than the photo.
      const smallest = variants.filter((v) => v.format === 'webp').sort((a, b) => a.width - b.width)[0];
      byColour.set(w.key, {
        image: {
          url: w.url,
          alt: m?.alt_text ?? `${titles.get(id) ?? ''}, ${w.name}`,
          ...(m ? responsiveFields(variants, m.width, m.height) : {}),
        },
        swatch: smallest?.url ?? w.url,
      });
    }
    out.set(id, byColour);
  }
  return out;
}

/**
 * Reads the colour photos of the kept `cards` a colour filter of `keys` shows (colourCard's colourImage)
 * that were not read with them: one read for a page, none when every card's are read or none is of those
 * colours. A listing calls it before colourCard.
 */
export async function withColourPhotos(
  db: DbOrTx,
  cards: readonly ProductCard[],
  keys: readonly string[],
): Promise<void> {
  const wanted: PhotoWants = new Map();
  const owners: ProductCard[] = [];
  for (const card of cards) {
    const list = photosToRead.get(card);
    if (!list?.some((w) => keys.includes(w.key))) continue;
    wanted.set(card.id, list);
    owners.push(card);
  }
  if (owners.length === 0) return;
  const photos = await colourPhotos(db, wanted, owners);
  for (const card of owners) {
    colourPhotosOf.set(card, photos.get(card.id) ?? new Map());
    photosToRead.delete(card);
  }
}

/** The colour photos of a kept card not read yet (its colours' swatches are their hex): withColourPhotos. */
const photosToRead = new WeakMap<ProductCard, ColourPhotoWant[]>();

/** A colour's first photo: as a card found through the colour shows it, and as its swatch. */
type ColourPhoto = { image: ImageRef; swatch: string };

/**
 * The colour photos of a kept card, by colour key: what its colour-scoped versions show (colourCard), kept
 * beside the card rather than in its JSON, which a plain listing sends.
 */
const colourPhotosOf = new WeakMap<ProductCard, Map<string, ColourPhoto>>();

/**
 * The swatches as a card shows them: a colour's hex where it has one, its photo otherwise, so the photo of a
 * colour with a hex is not sent (its first photo was needed only to find colourImage, kept in colourPhotosOf).
 */
function swatchesAsShown(card: ProductCard): ProductCard {
  if (!card.colours?.some((c) => c.hex !== undefined && c.image !== undefined)) return card;
  const colours = card.colours.map((c) => {
    if (c.hex === undefined || c.image === undefined) return c;
    const { image: _shownAsHex, ...shown } = c;
    return shown;
  });
  return { ...card, colours };
}

function withSwatchPhotos(card: ProductCard, photos: Map<string, ColourPhoto>): ProductCard {
  const colours = card.colours?.map((c) => {
    const photo = photos.get(colourKeyOf(c.name));
    return photo ? { ...c, image: photo.swatch } : c;
  });
  return colours ? { ...card, colours } : card;
}

/**
 * A card marked with what is sold out of it (stock.repository's soldOutStockOf, or the snapshot's copy):
 * its sizes sold out in every colour (markCard), and each colour's own on its swatch.
 */
export function markCardStock(card: ProductCard, stock: SoldOutStock | undefined): ProductCard {
  const marked = markCard(card, stock?.sizes);
  if (!card.colours || !stock || stock.byColour.size === 0) return marked;
  let changed = false;
  const colours = card.colours.map((c): CardColour => {
    const gone = stock.byColour.get(colourKeyOf(c.name));
    const soldOutSizes = gone ? card.sizes.filter((s) => gone.has(s)) : [];
    if (soldOutSizes.length === 0) return c;
    changed = true;
    return { ...c, soldOutSizes };
  });
  return changed ? { ...marked, colours } : marked;
}

/**
 * The card as found through a colour filter of `keys` (colour keys, in the filter's order): the card with
 * `colour`, the first of them the product has something of to sell (else the first it has), and that
 * colour's first photo in `colourImage` when it has one of its own. What the colour changes (price, sold-out
 * sizes) the card has already in `colours`, and the shared cardView reads it there. A card without any of
 * those colours is itself. `photosOf` is the card its photos were kept with (the card before its marks,
 * for the cards by id).
 */
export function colourCard(
  card: ProductCard,
  keys: readonly string[],
  photosOf: ProductCard = card,
): ProductCard {
  const colours = card.colours;
  if (!colours || keys.length === 0) return card;
  const colour = foundColour(card, colours, keys);
  if (!colour) return card;
  // A kept card's versions by colour, not by filter: the stream of shoppers' filters seldom repeats one, but
  // every filter that finds a card finds it in one of its few colours.
  const versions = colourVersions.get(card);
  const seen = versions?.get(colour.name);
  if (seen) return seen;
  const version = makeColourCard(card, colours, colour, photosOf);
  // Only a kept card (frozen with its JSON) lives long enough for its versions to be asked for again.
  if (Object.isFrozen(card)) {
    if (!versions) colourVersions.set(card, new Map([[colour.name, version]]));
    else versions.set(colour.name, version);
  }
  return version;
}

/** The first of `keys` the card has something of to sell in (else the first it has at all). */
function foundColour(
  card: ProductCard,
  colours: CardColour[],
  keys: readonly string[],
): CardColour | undefined {
  let first: CardColour | undefined;
  for (const key of keys) {
    for (const c of colours) {
      if (colourKeyOf(c.name) !== key) continue;
      first ??= c;
      if (card.sizes.length === 0 || (c.soldOutSizes?.length ?? 0) < card.sizes.length) return c;
    }
  }
  return first;
}

function makeColourCard(
  card: ProductCard,
  colours: CardColour[],
  colour: CardColour,
  photosOf: ProductCard,
): ProductCard {
  const colourImage = colourPhotosOf.get(photosOf)?.get(colourKeyOf(colour.name))?.image;
  // Every field by name: a literal is what V8 makes fastest (a spread of the card cost a third of a colour
  // filter's listing in the bench), and `satisfies` keeps the list whole as cards gain fields.
  const version = {
    id: card.id,
    title: card.title,
    description: card.description,
    manufacturer: card.manufacturer,
    priceMinor: card.priceMinor,
    currency: card.currency,
    salePriceMinor: card.salePriceMinor,
    salePercent: card.salePercent,
    sizes: card.sizes,
    image: card.image,
    hasPaymentLink: card.hasPaymentLink,
    soldOut: card.soldOut,
    soldOutSizes: card.soldOutSizes,
    colours,
    colour: colour.name,
    colourImage,
  } satisfies Record<keyof ProductCard, unknown>;
  // Its JSON is the card's own with these one or two members after it: nothing of the card is written or
  // copied again (a JSON.stringify per version was most of what a colour filter's listing cost in the bench).
  const extra = JSON.stringify(colourImage ? { colour: colour.name, colourImage } : { colour: colour.name });
  return card.colour === undefined ? keepJsonWith(version, card, extra) : version;
}

/** The colour versions made of each kept card, by colour name, with their JSON. */
const colourVersions = new WeakMap<ProductCard, Map<string, ProductCard>>();

/**
 * What the snapshot has sold out of its `slots` that have anything sold out, by product id, as it has it
 * now: taken before a card read's await, so it is of the revision the snapshot was then.
 */
function soldOutOfSlots(snap: FacetSnapshot, slots: number[], ids: string[]): Map<string, SoldOutStock> {
  const soldOut = new Map<string, SoldOutStock>();
  for (const [i, slot] of slots.entries()) {
    const stock = snap.soldOutStockOf.get(slot);
    if (!stock) continue;
    soldOut.set(ids[i] ?? '', {
      sizes: new Set(stock.sizes),
      byColour: new Map(stock.byColour.map(([colour, sizes]) => [colour, new Set(sizes)])),
    });
  }
  return soldOut;
}

/**
 * Cards of one revision by the slot of the snapshot that listed them, so a listing answered from the
 * snapshot looks its page up by index rather than by id (an id is cut from the snapshot's text of ids, a new
 * string to hash each time, in a Map cold in the CPU's caches). Same bound and rule as the cards by id. A
 * slot stands for one product for the snapshot object's whole life (a refresh only adds slots; a changed
 * product gets a new one), and the revision decides what its card says: the cache is of both.
 */
const slotCaches = new WeakMap<
  object,
  { revision: string; snap: FacetSnapshot; cards: SlotGenerationCache<ProductCard> }
>();

/** Drops `db`'s cache in `from` unless it is of a revision newer than `revision`. */
function dropUnlessNewer(from: WeakMap<object, { revision: string }>, db: DbOrTx, revision: string): void {
  const held = from.get(db);
  if (held && !isOlder(revision, held.revision)) from.delete(db);
}

/**
 * The cards of the snapshot's `slots` whose products exist, in the slots' order, each marked with its
 * sold-out sizes as the snapshot has them (kept with the card: they move the revision when they change).
 */
export async function cardsOfSlots(
  db: DbOrTx,
  revision: string,
  snap: FacetSnapshot,
  slots: number[],
): Promise<ProductCard[]> {
  let cache = slotCaches.get(db);
  // As in cardsOf, a late request reads its cards as they are now and keeps none: a page's worth of reads,
  // not a cache (whose arrays are as long as the snapshot) made for one page. So does one whose snapshot
  // was brought to a newer revision while it waited (its marks are of that one now, not of `revision`).
  const late = cache !== undefined && cache.revision !== revision && isOlder(revision, cache.revision);
  if (late || snap.revision !== revision) {
    const ids = slots.map((slot) => idOfSlot(snap, slot));
    const read = await readKeptCards(db, revision, ids, soldOutOfSlots(snap, slots, ids));
    return ids.flatMap((id) => read.get(id) ?? []);
  }
  if (!cache || cache.revision !== revision || cache.snap !== snap) {
    cache = { revision, snap, cards: new SlotGenerationCache(CARDS, slotRoom(snap)) };
    slotCaches.set(db, cache);
    // The snapshot answers this revision's listings from now on: cards by id (kept while SQL answered,
    // before it landed) would only double the bound.
    dropUnlessNewer(caches, db, revision);
  }
  const cards = cache.cards;
  const found = slots.map((slot) => cards.get(slot));
  const missing: number[] = [];
  for (const [i, card] of found.entries()) if (card === undefined) missing.push(slots[i] ?? 0);
  if (missing.length > 0) {
    const ids = missing.map((slot) => idOfSlot(snap, slot));
    const read = await readKeptCards(db, revision, ids, soldOutOfSlots(snap, missing, ids));
    const bySlot = new Map<number, ProductCard>();
    for (const [i, slot] of missing.entries()) {
      const card = read.get(ids[i] ?? '');
      if (card === undefined) continue;
      cards.set(slot, card);
      bySlot.set(slot, card);
    }
    for (const [i, slot] of slots.entries()) found[i] ??= bySlot.get(slot);
  }
  return found.filter((card) => card !== undefined);
}

/** Slots in use and room for a few added later in the same revision (an array grows past its length). */
function slotRoom(snap: FacetSnapshot): number {
  return snap.alive.length * 32;
}

/**
 * The card query, compiled once per SQLite database and number of ids (a page has at most 48): building and
 * compiling it with Kysely cost a third of a card read at 100,000 products, SQLite's work the rest.
 */
const compiledReads = new WeakMap<object, Map<number, CompiledQuery<CardRow>>>();
const MOST_IDS_COMPILED = 48;

async function readCards(db: DbOrTx, ids: string[]): Promise<CardRow[]> {
  let byCount = compiledReads.get(db);
  if (!byCount) {
    byCount = new Map();
    compiledReads.set(db, byCount);
  }
  const kept = byCount.get(ids.length);
  if (kept) {
    // The ids are the query's last parameters (checked when it was compiled): this read's own go there.
    const parameters = [...kept.parameters.slice(0, kept.parameters.length - ids.length), ...ids];
    return (await db.executeQuery<CardRow>({ ...kept, parameters })).rows;
  }
  const compiled: CompiledQuery<CardRow> = cardColumns(db).where('p.id', 'in', ids).compile();
  const last = compiled.parameters.slice(compiled.parameters.length - ids.length);
  // Not on PostgreSQL: its plugins rewrite a query's values when it is compiled (text-without-nul.ts), which
  // a compiled query given new ones would skip; and there a read waits on the network anyway.
  const reusable = engineOf(db) === 'sqlite' && ids.length <= MOST_IDS_COMPILED;
  if (reusable && last.every((p, i) => p === ids[i])) byCount.set(ids.length, compiled);
  return (await db.executeQuery(compiled)).rows;
}

/**
 * Revisions are counters (as text) that only move forward while the store runs, with the clock's index
 * after a dot once there are sales (sale-timeline.ts revisionAt): compared part by part.
 */
function isOlder(revision: string, than: string): boolean {
  const [a = NaN, ai = 0] = revision.split('.').map(Number);
  const [b = NaN, bi = 0] = than.split('.').map(Number);
  if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b)) return false;
  return a < b || (a === b && ai < bi);
}
