import { CATALOGUE_SORTS, type CatalogueSort } from './catalogue.js';
import { formatMoney, parseMajorToMinor } from './money.js';
import { MIN_WORD_LENGTH } from './search-input.js';
import { LISTING_PARAM } from './ssr-contract.js';

/**
 * The catalogue listing a home-page address shows (its search, filters, sort and page), read the same way by
 * the browser (client/src/features/catalogue/catalogue-url.ts) and by the server's page head
 * (src/http/seo.ts), so the title a listing arrives with is the one it keeps after hydration.
 */

/** Price filters are typed and shown in the store's currency (the demo catalogue prices in usd). */
export const STORE_CURRENCY = 'usd';

export type CatalogueView = {
  q: string;
  manufacturers: string[];
  sizes: string[];
  colors: string[];
  tags: string[];
  priceMin: number | undefined;
  priceMax: number | undefined;
  inStock: boolean;
  /** Only products on sale now (decision 0037). */
  onSale: boolean;
  sort: CatalogueSort | undefined;
  page: number;
};

/** Reads the catalogue view from a query string; anything malformed is ignored, never an error. */
export function parseView(search: string): CatalogueView {
  const params = new URLSearchParams(search);
  const list = (name: string) =>
    [
      ...new Set(
        params
          .getAll(name)
          .map((v) => v.trim())
          .filter(Boolean),
      ),
    ].slice(0, 50);
  const price = (name: string) => {
    const raw = params.get(name);
    const minor = raw ? parseMajorToMinor(raw, STORE_CURRENCY) : null;
    return minor ?? undefined;
  };
  const sort = params.get(LISTING_PARAM.sort);
  const page = Number(params.get(LISTING_PARAM.page));
  return {
    q: (params.get(LISTING_PARAM.q) ?? '').slice(0, 200),
    manufacturers: list(LISTING_PARAM.manufacturers),
    sizes: list(LISTING_PARAM.sizes),
    colors: list(LISTING_PARAM.colors),
    tags: list(LISTING_PARAM.tags),
    priceMin: price(LISTING_PARAM.priceMin),
    priceMax: price(LISTING_PARAM.priceMax),
    inStock: params.get(LISTING_PARAM.inStock) === '1',
    onSale: params.get(LISTING_PARAM.onSale) === '1',
    sort: CATALOGUE_SORTS.includes(sort as CatalogueSort) ? (sort as CatalogueSort) : undefined,
    page: Number.isInteger(page) && page > 1 ? Math.min(page, 100) : 1,
  };
}

export function hasFilters(view: CatalogueView): boolean {
  return (
    view.q.trim() !== '' ||
    view.manufacturers.length + view.sizes.length + view.colors.length + view.tags.length > 0 ||
    view.priceMin !== undefined ||
    view.priceMax !== undefined ||
    view.inStock ||
    view.onSale
  );
}

/** Values of one group shown in a title; more are counted ("Lawn, Silk, Eid or 2 more"). */
const SHOWN_PER_GROUP = 3;
/** Longest search text a title repeats: the box takes 200 characters, a tab shows far fewer. */
const SHOWN_SEARCH = 60;

/** A group's values as the listing combines them: any of them (OR within a group, AND across groups). */
function anyOf(values: string[]): string {
  const shown = values.slice(0, SHOWN_PER_GROUP);
  const more = values.length - shown.length;
  if (more > 0) return `${shown.join(', ')} or ${more} more`;
  if (shown.length === 1) return shown[0] ?? '';
  return `${shown.slice(0, -1).join(', ')} or ${shown[shown.length - 1]}`;
}

/** The search text when the listing searches it: a single letter is not searched (decision 0024). */
function searchedText(q: string): string {
  const text = q.replace(/\s+/g, ' ').trim();
  const words = text.match(/[\p{L}\p{N}]+/gu) ?? [];
  if (!words.some((w) => [...w].length >= MIN_WORD_LENGTH)) return '';
  return text.length > SHOWN_SEARCH ? `${text.slice(0, SHOWN_SEARCH - 1)}…` : text;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * What a listing lists, for its title and heading: "Search: silk", "Lawn · size M", "Noor Mahal · colour
 * Mint or Ivory · up to $50 · in stock". Null for the whole catalogue (the home page's own title). The sort
 * and the page do not change what is listed, so they are not in it. Plain text: whoever shows it escapes it.
 */
export function listingTitle(view: CatalogueView): string | null {
  // [text, whether it starts with the store's own word] — only those are capitalised at the start.
  const parts: Array<[string, boolean]> = [];
  const q = searchedText(view.q);
  if (q) parts.push([`Search: ${q}`, true]);
  if (view.tags.length) parts.push([anyOf(view.tags), false]);
  if (view.manufacturers.length) parts.push([anyOf(view.manufacturers), false]);
  if (view.colors.length) parts.push([`colour ${anyOf(view.colors)}`, true]);
  if (view.sizes.length) parts.push([`size ${anyOf(view.sizes)}`, true]);
  const money = (minor: number) => formatMoney(minor, STORE_CURRENCY);
  if (view.priceMin !== undefined && view.priceMax !== undefined) {
    parts.push([`${money(view.priceMin)}–${money(view.priceMax)}`, true]);
  } else if (view.priceMin !== undefined) {
    parts.push([`from ${money(view.priceMin)}`, true]);
  } else if (view.priceMax !== undefined) {
    parts.push([`up to ${money(view.priceMax)}`, true]);
  }
  if (view.inStock) parts.push(['in stock', true]);
  if (view.onSale) parts.push(['on sale', true]);
  const [first, ...rest] = parts;
  if (!first) return null;
  return [first[1] ? capitalised(first[0]) : first[0], ...rest.map(([text]) => text)].join(' · ');
}
