import type { CatalogueFacets, FacetOption } from '@shared/catalogue';
import { minorToMajorString, parseMajorToMinor } from '@shared/money';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { useEarlyInput } from '../../lib/use-early-input';
import { type CatalogueView, STORE_CURRENCY } from './catalogue-url';

type ListField = 'manufacturers' | 'sizes' | 'colors' | 'tags';

const GROUPS: Array<{
  field: ListField;
  facet: keyof Omit<CatalogueFacets, 'price' | 'onSale'>;
  label: string;
}> = [
  { field: 'manufacturers', facet: 'manufacturer', label: 'Manufacturer' },
  { field: 'sizes', facet: 'size', label: 'Size' },
  { field: 'colors', facet: 'color', label: 'Colour' },
  { field: 'tags', facet: 'tag', label: 'Tag' },
];

const sameValue = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export function FilterPanel({
  view,
  facets,
  onChange,
}: {
  view: CatalogueView;
  facets: CatalogueFacets | undefined;
  onChange: (change: Partial<CatalogueView>) => void;
}) {
  // Boxes ticked or cleared before the page was hydrated count, all of them in one change.
  const panel = useEarlyInput<HTMLDivElement>((element) => {
    const change = boxesChanged(element, view);
    if (Object.keys(change).length > 0) onChange(change);
  });
  return (
    <div ref={panel} className="space-y-6">
      <InStockOnly checked={view.inStock} onChange={(inStock) => onChange({ inStock })} />
      <OnSaleOnly checked={view.onSale} count={facets?.onSale} onChange={(onSale) => onChange({ onSale })} />
      {GROUPS.map((g) => (
        <FacetGroup
          key={g.field}
          field={g.field}
          label={g.label}
          options={facets?.[g.facet]}
          selected={view[g.field]}
          onToggle={(value) => {
            const current = view[g.field];
            const next = current.some((v) => sameValue(v, value))
              ? current.filter((v) => !sameValue(v, value))
              : [...current, value];
            onChange({ [g.field]: next });
          }}
        />
      ))}
      <PriceRange view={view} bounds={facets?.price ?? null} onChange={onChange} />
    </div>
  );
}

/** What the panel's boxes say that `view` does not: the view change they make, as one change. */
function boxesChanged(panel: HTMLElement, view: CatalogueView): Partial<CatalogueView> {
  const change: Partial<CatalogueView> = {};
  const boxes = (field: string) => [
    ...panel.querySelectorAll<HTMLInputElement>(`input[data-field="${field}"]`),
  ];
  const [inStock] = boxes('inStock');
  if (inStock && inStock.checked !== view.inStock) change.inStock = inStock.checked;
  const [onSale] = boxes('onSale');
  if (onSale && onSale.checked !== view.onSale) change.onSale = onSale.checked;
  for (const { field } of GROUPS) {
    let next = view[field];
    for (const box of boxes(field)) {
      const held = next.some((v) => sameValue(v, box.value));
      if (box.checked && !held) next = [...next, box.value];
      if (!box.checked && held) next = next.filter((v) => !sameValue(v, box.value));
    }
    if (next !== view[field]) change[field] = next;
  }
  return change;
}

/** Sizes that are sold out stop counting: with sizes chosen, one of those sizes must be there to buy. */
function InStockOnly({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <FilterCheckbox legend="Availability" field="inStock" checked={checked} onChange={onChange}>
      In stock only
    </FilterCheckbox>
  );
}

/** Products a sale runs for now, with how many of those found are (decision 0037). */
function OnSaleOnly({
  checked,
  count,
  onChange,
}: {
  checked: boolean;
  count: number | undefined;
  onChange: (checked: boolean) => void;
}) {
  // Hidden while nothing is on sale, unless the address asks for it (so it can be cleared).
  if (!checked && !count) return null;
  return (
    <FilterCheckbox legend="Offers" field="onSale" checked={checked} onChange={onChange}>
      On sale{count !== undefined ? <span className="text-muted"> ({count})</span> : null}
    </FilterCheckbox>
  );
}

/** One yes/no filter under its own legend; `field` is what boxesChanged reads before hydration. */
function FilterCheckbox({
  legend,
  field,
  checked,
  onChange,
  children,
}: {
  legend: string;
  field: 'inStock' | 'onSale';
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <fieldset>
      <legend className="text-xs font-semibold tracking-[0.14em] text-ink uppercase">{legend}</legend>
      <div className="mt-3 flex items-center gap-2 text-sm">
        <input
          id={id}
          type="checkbox"
          data-field={field}
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          className="h-4 w-4 accent-maroon"
        />
        <label htmlFor={id}>{children}</label>
      </div>
    </fieldset>
  );
}

function FacetGroup({
  field,
  label,
  options,
  selected,
  onToggle,
}: {
  field: ListField;
  label: string;
  options: FacetOption[] | undefined;
  selected: string[];
  onToggle: (value: string) => void;
}) {
  const id = useId();
  if (options && options.length === 0) return null;
  return (
    <fieldset>
      <legend className="text-xs font-semibold tracking-[0.14em] text-ink uppercase">{label}</legend>
      {!options ? (
        <div className="mt-3 space-y-2" aria-hidden="true">
          <div className="skeleton h-4 w-32 rounded" />
          <div className="skeleton h-4 w-24 rounded" />
        </div>
      ) : (
        <ul className="mt-3 max-h-64 space-y-1.5 overflow-y-auto pr-1">
          {options.map((o, i) => {
            const checked = selected.some((v) => sameValue(v, o.value));
            const inputId = `${id}-${i}`;
            return (
              <li key={o.value} className="flex items-center gap-2 text-sm">
                <input
                  id={inputId}
                  type="checkbox"
                  data-field={field}
                  value={o.value}
                  checked={checked}
                  disabled={!checked && o.count === 0}
                  onChange={() => onToggle(o.value)}
                  className="h-4 w-4 accent-maroon"
                />
                <label
                  htmlFor={inputId}
                  className={`flex-1 ${!checked && o.count === 0 ? 'text-muted/60' : ''}`}
                >
                  {o.value}
                </label>
                <span className="text-xs text-muted" aria-hidden="true">
                  {o.count}
                </span>
                <span className="sr-only">{`${o.count} ${o.count === 1 ? 'product' : 'products'}`}</span>
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}

function PriceRange({
  view,
  bounds,
  onChange,
}: {
  view: CatalogueView;
  bounds: { min: number; max: number } | null;
  onChange: (change: Partial<CatalogueView>) => void;
}) {
  const shown = (minor: number | undefined) =>
    minor === undefined ? '' : minorToMajorString(minor, STORE_CURRENCY);
  const [min, setMin] = useState(shown(view.priceMin));
  const [max, setMax] = useState(shown(view.priceMax));
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  // Prices typed before the page was hydrated stay typed (applied, as ever, with the button).
  const minInput = useEarlyInput<HTMLInputElement>((input) => {
    if (input.value !== min) setMin(input.value);
  });
  const maxInput = useEarlyInput<HTMLInputElement>((input) => {
    if (input.value !== max) setMax(input.value);
  });

  // Follow the URL when it changes (Back, Clear all); not at mount, where the boxes hold what was typed.
  const followed = useRef({ min: view.priceMin, max: view.priceMax });
  useEffect(() => {
    if (followed.current.min === view.priceMin && followed.current.max === view.priceMax) return;
    followed.current = { min: view.priceMin, max: view.priceMax };
    setMin(view.priceMin === undefined ? '' : minorToMajorString(view.priceMin, STORE_CURRENCY));
    setMax(view.priceMax === undefined ? '' : minorToMajorString(view.priceMax, STORE_CURRENCY));
  }, [view.priceMin, view.priceMax]);

  const apply = (e: FormEvent) => {
    e.preventDefault();
    const lo = min.trim() ? parseMajorToMinor(min, STORE_CURRENCY) : undefined;
    const hi = max.trim() ? parseMajorToMinor(max, STORE_CURRENCY) : undefined;
    if (lo === null || hi === null) {
      setError('Enter prices like 50 or 49.99');
      return;
    }
    if (lo !== undefined && hi !== undefined && lo > hi) {
      setError('The minimum is above the maximum');
      return;
    }
    setError(null);
    onChange({ priceMin: lo, priceMax: hi });
  };

  return (
    <form onSubmit={apply} aria-labelledby={`${id}-legend`}>
      <p id={`${id}-legend`} className="text-xs font-semibold tracking-[0.14em] text-ink uppercase">
        Price (USD)
      </p>
      <div className="mt-3 flex items-center gap-2">
        <label htmlFor={`${id}-min`} className="sr-only">
          Minimum price
        </label>
        <input
          ref={minInput}
          id={`${id}-min`}
          inputMode="decimal"
          value={min}
          onChange={(e) => setMin(e.target.value)}
          placeholder={bounds ? minorToMajorString(bounds.min, STORE_CURRENCY) : 'Min'}
          className="w-full rounded-lg border border-stone-line bg-white px-2 py-1.5 text-sm"
        />
        <span aria-hidden="true">–</span>
        <label htmlFor={`${id}-max`} className="sr-only">
          Maximum price
        </label>
        <input
          ref={maxInput}
          id={`${id}-max`}
          inputMode="decimal"
          value={max}
          onChange={(e) => setMax(e.target.value)}
          placeholder={bounds ? minorToMajorString(bounds.max, STORE_CURRENCY) : 'Max'}
          className="w-full rounded-lg border border-stone-line bg-white px-2 py-1.5 text-sm"
        />
      </div>
      {error ? (
        <p role="alert" className="mt-1 text-xs text-red-700">
          {error}
        </p>
      ) : null}
      <Button type="submit" variant="secondary" className="mt-3 w-full py-1.5">
        Apply price
      </Button>
    </form>
  );
}
