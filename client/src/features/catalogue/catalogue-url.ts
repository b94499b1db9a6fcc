import { CATALOGUE_SORTS, type CatalogueSort } from '@shared/catalogue';
import type { CatalogueFilterInput } from '@shared/catalogue-input';
import { minorToMajorString, parseMajorToMinor } from '@shared/money';
import { LISTING_PARAM } from '@shared/ssr-contract';
import { useCallback, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';

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
  sort: CatalogueSort | undefined;
  page: number;
};

const LIST_PARAMS = {
  manufacturers: LISTING_PARAM.manufacturers,
  sizes: LISTING_PARAM.sizes,
  colors: LISTING_PARAM.colors,
  tags: LISTING_PARAM.tags,
} as const;

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
    manufacturers: list(LIST_PARAMS.manufacturers),
    sizes: list(LIST_PARAMS.sizes),
    colors: list(LIST_PARAMS.colors),
    tags: list(LIST_PARAMS.tags),
    priceMin: price(LISTING_PARAM.priceMin),
    priceMax: price(LISTING_PARAM.priceMax),
    inStock: params.get(LISTING_PARAM.inStock) === '1',
    sort: CATALOGUE_SORTS.includes(sort as CatalogueSort) ? (sort as CatalogueSort) : undefined,
    page: Number.isInteger(page) && page > 1 ? Math.min(page, 100) : 1,
  };
}

export function serializeView(view: CatalogueView): string {
  const params = new URLSearchParams();
  if (view.q.trim()) params.set(LISTING_PARAM.q, view.q.trim());
  for (const [field, name] of Object.entries(LIST_PARAMS) as Array<[keyof typeof LIST_PARAMS, string]>) {
    for (const v of view[field]) params.append(name, v);
  }
  if (view.priceMin !== undefined)
    params.set(LISTING_PARAM.priceMin, minorToMajorString(view.priceMin, STORE_CURRENCY));
  if (view.priceMax !== undefined)
    params.set(LISTING_PARAM.priceMax, minorToMajorString(view.priceMax, STORE_CURRENCY));
  if (view.inStock) params.set(LISTING_PARAM.inStock, '1');
  if (view.sort) params.set(LISTING_PARAM.sort, view.sort);
  if (view.page > 1) params.set(LISTING_PARAM.page, String(view.page));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function toFilter(view: CatalogueView): CatalogueFilterInput {
  return {
    q: view.q.trim() || undefined,
    manufacturers: view.manufacturers,
    sizes: view.sizes,
    colors: view.colors,
    tags: view.tags,
    priceMin: view.priceMin,
    priceMax: view.priceMax,
    inStock: view.inStock,
  };
}

export function hasFilters(view: CatalogueView): boolean {
  return (
    view.q.trim() !== '' ||
    view.manufacturers.length + view.sizes.length + view.colors.length + view.tags.length > 0 ||
    view.priceMin !== undefined ||
    view.priceMax !== undefined ||
    view.inStock
  );
}

/**
 * The catalogue view lives in the URL: a shared link reproduces it and Back restores it. Filter changes add a
 * history entry; typing a search and loading more pages replace the current one, so Back is not cluttered.
 */
export function useCatalogueView() {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const view = useMemo(() => parseView(search), [search]);
  const update = useCallback(
    (change: Partial<CatalogueView>, opts: { replace?: boolean } = {}) => {
      // The address as it is now, not as this render saw it: changes made one after another in the same
      // moment (the controls a shopper used before the page was hydrated, taken up together) all count.
      const next = { ...parseView(window.location.search), page: 1, ...change };
      navigate(`${location}${serializeView(next)}`, { replace: opts.replace ?? false });
    },
    [location, navigate],
  );
  return { view, update };
}
