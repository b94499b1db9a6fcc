import { type CatalogueView, parseView, STORE_CURRENCY } from '@shared/listing';
import { minorToMajorString } from '@shared/money';
import { LISTING_PARAM } from '@shared/ssr-contract';
import type { CatalogueFilterInput } from '@shared/storefront-input';
import { useCallback, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';

// The view and its reading live in src/shared/listing.ts: the server's page head reads a listing's URL too.
export { type CatalogueView, hasFilters, parseView, STORE_CURRENCY } from '@shared/listing';

const LIST_PARAMS = {
  manufacturers: LISTING_PARAM.manufacturers,
  sizes: LISTING_PARAM.sizes,
  colors: LISTING_PARAM.colors,
  tags: LISTING_PARAM.tags,
} as const;

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
  if (view.onSale) params.set(LISTING_PARAM.onSale, '1');
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
    // Left out when off: the request (and its cache key) stays as before.
    ...(view.onSale ? { onSale: true } : {}),
  };
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
