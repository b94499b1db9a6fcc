import { MAX_COLOURS, normaliseHex } from '@shared/colours';
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { type ColourDraft, emptyColour, moved } from './product-form-state';
import { SizeDetailEditor } from './size-detail-editor';

/** One of the product's photos, as the colours offer it. */
export type ProductPhoto = { url: string; thumbnail: string; altText: string | null; fileName: string };

/** What to put in focus once the list has re-rendered: a row's box or button, or the add button. */
type FocusTarget = { key: string; part: 'name' | 'up' | 'down' } | { key: null; part: 'add' };

/**
 * The product's colours: each with its name, swatch, SKU suffix, price, photos and (when cut differently)
 * its own chart. Their stock is in the stock grid beside the all-colours count.
 */
export function ColoursEditor({
  colours,
  onChange,
  sizes,
  currency,
  photos,
  error,
  sectionError,
}: {
  colours: ColourDraft[];
  onChange: (colours: ColourDraft[]) => void;
  sizes: string[];
  currency: string;
  /** The product's photos; null while it has not been saved (it cannot have any yet). */
  photos: ProductPhoto[] | null;
  error: (key: string) => string | undefined;
  sectionError: string | undefined;
}) {
  const hintId = useId();
  const sectionRef = useRef<HTMLFieldSetElement>(null);
  const [focus, setFocus] = useState<FocusTarget | null>(null);

  useEffect(() => {
    if (!focus) return;
    const target =
      focus.part === 'add'
        ? '[data-focus="add"]'
        : `[data-colour="${focus.key}"] [data-focus="${focus.part}"]`;
    sectionRef.current?.querySelector<HTMLElement>(target)?.focus();
    setFocus(null);
  }, [focus]);

  const update = (key: string, patch: Partial<ColourDraft>) =>
    onChange(colours.map((c) => (c.key === key ? { ...c, ...patch } : c)));
  const move = (i: number, by: -1 | 1, key: string) => {
    onChange(moved(colours, i, i + by));
    // The button pressed moves with its colour; at the end of the list the other direction remains.
    const part = by === -1 ? (i + by === 0 ? 'down' : 'up') : i + by === colours.length - 1 ? 'up' : 'down';
    setFocus({ key, part });
  };

  return (
    <fieldset ref={sectionRef} aria-describedby={hintId} data-testid="colours-editor">
      <legend className="text-sm font-medium">Colours</legend>
      <p id={hintId} className="mt-1 text-xs text-muted">
        One design in several colours. Photos no colour claims are shown for every colour; an empty amount is
        the product's price.
      </p>
      {sectionError ? (
        <p className="mt-1 text-xs text-red-700" data-field-error tabIndex={-1}>
          {sectionError}
        </p>
      ) : null}
      <ol className="mt-3 space-y-4">
        {colours.map((c, i) => {
          const n = i + 1;
          const called = c.name.trim() || `colour ${n}`;
          return (
            <li
              key={c.key}
              data-colour={c.key}
              data-testid="colour-row"
              className="rounded-lg border border-stone-line p-3"
            >
              <fieldset>
                <legend className="px-1 text-sm font-semibold">
                  Colour {n}
                  {c.name.trim() ? `: ${c.name.trim()}` : ''}
                </legend>
                <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
                  <TextField
                    label={`Colour ${n} name`}
                    value={c.name}
                    maxLength={60}
                    onChange={(e) => update(c.key, { name: e.target.value })}
                    error={error(`colors.${i}.name`)}
                    data-focus="name"
                    required
                  />
                  <SwatchField
                    n={n}
                    value={c.hex}
                    onChange={(hex) => update(c.key, { hex })}
                    error={error(`colors.${i}.hex`)}
                  />
                  <TextField
                    label={`Colour ${n} SKU suffix (optional)`}
                    value={c.skuSuffix}
                    placeholder="-TEAL"
                    onChange={(e) => update(c.key, { skuSuffix: e.target.value })}
                    error={error(`colors.${i}.skuSuffix`)}
                  />
                  <TextField
                    // Not "price": the product's own Price box is found by that word, here and in tests.
                    label={`Colour ${n} amount in ${currency.toUpperCase()} (optional)`}
                    value={c.price}
                    inputMode="decimal"
                    placeholder="Product price"
                    onChange={(e) => update(c.key, { price: e.target.value })}
                    error={error(`colors.${i}.price`)}
                  />
                </div>
                <ColourPhotos
                  n={n}
                  called={called}
                  photos={photos}
                  value={c.images}
                  onChange={(images) => update(c.key, { images })}
                  error={error(`colors.${i}.images`)}
                />
                <label className="mt-3 flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    checked={c.ownChart}
                    onChange={(e) => update(c.key, { ownChart: e.target.checked })}
                  />
                  This colour is cut differently: it has its own measurement chart
                </label>
                {c.ownChart ? (
                  <div className="mt-2">
                    <SizeDetailEditor
                      sizes={sizes}
                      value={c.sizeDetail}
                      onChange={(sizeDetail) => update(c.key, { sizeDetail })}
                      legend={`Measurements of ${called}`}
                      of={called}
                    />
                    {error(`colors.${i}.sizeDetail`) ? (
                      <p className="mt-1 text-xs text-red-700" data-field-error tabIndex={-1}>
                        {error(`colors.${i}.sizeDetail`)}
                      </p>
                    ) : null}
                  </div>
                ) : null}
                <div className="mt-3 flex flex-wrap gap-2">
                  <Button
                    variant="ghost"
                    className="px-3 py-1"
                    disabled={i === 0}
                    data-focus="up"
                    aria-label={`Move ${called} up`}
                    onClick={() => move(i, -1, c.key)}
                  >
                    <ArrowUp aria-hidden="true" className="h-4 w-4" /> Up
                  </Button>
                  <Button
                    variant="ghost"
                    className="px-3 py-1"
                    disabled={i === colours.length - 1}
                    data-focus="down"
                    aria-label={`Move ${called} down`}
                    onClick={() => move(i, 1, c.key)}
                  >
                    <ArrowDown aria-hidden="true" className="h-4 w-4" /> Down
                  </Button>
                  <Button
                    variant="ghost"
                    className="px-3 py-1 text-red-800"
                    aria-label={`Remove ${called}`}
                    onClick={() => {
                      onChange(colours.filter((x) => x.key !== c.key));
                      setFocus({ key: null, part: 'add' });
                    }}
                  >
                    <Trash2 aria-hidden="true" className="h-4 w-4" /> Remove
                  </Button>
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <div className="mt-3 flex items-center gap-3">
        <Button
          data-focus="add"
          variant="secondary"
          className="px-4 py-1.5"
          disabled={colours.length >= MAX_COLOURS}
          onClick={() => {
            const colour = emptyColour();
            onChange([...colours, colour]);
            setFocus({ key: colour.key, part: 'name' });
          }}
        >
          <Plus aria-hidden="true" className="h-4 w-4" /> Add colour
        </Button>
        {colours.length >= MAX_COLOURS ? (
          <p className="text-xs text-muted">At most {MAX_COLOURS} colours.</p>
        ) : null}
      </div>
    </fieldset>
  );
}

/** The swatch as hex text and as the browser's colour picker: both set the same value. */
function SwatchField({
  n,
  value,
  onChange,
  error,
}: {
  n: number;
  value: string;
  onChange: (hex: string) => void;
  error: string | undefined;
}) {
  const pickerId = useId();
  return (
    <div className="flex items-end gap-2">
      <TextField
        className="flex-1"
        label={`Colour ${n} swatch hex (optional)`}
        value={value}
        placeholder="#1f7a6d"
        maxLength={20}
        onChange={(e) => onChange(e.target.value)}
        error={error}
      />
      <div className={error ? 'mb-5' : ''}>
        <label htmlFor={pickerId} className="sr-only">
          Colour {n} swatch picker
        </label>
        <input
          id={pickerId}
          type="color"
          // The picker needs a colour; an unset swatch shows white until one is picked.
          value={normaliseHex(value) ?? '#ffffff'}
          onChange={(e) => onChange(e.target.value)}
          className="h-10 w-12 cursor-pointer rounded border border-stone-line bg-white"
        />
      </div>
    </div>
  );
}

/** Toggles over the product's photos: those ticked are this colour's, shown first when it is picked. */
function ColourPhotos({
  n,
  called,
  photos,
  value,
  onChange,
  error,
}: {
  n: number;
  called: string;
  photos: ProductPhoto[] | null;
  value: string[];
  onChange: (images: string[]) => void;
  error: string | undefined;
}) {
  const errorId = useId();
  const known = new Set(photos?.map((p) => p.url) ?? []);
  const gone = photos ? value.filter((url) => !known.has(url)).length : 0;
  return (
    <fieldset className="mt-3" aria-describedby={error ? errorId : undefined}>
      <legend className="text-sm font-medium">Photos of {called}</legend>
      {photos === null ? (
        <p className="mt-1 text-xs text-muted">
          Save the product and add its photos first; then assign them to its colours here.
        </p>
      ) : photos.length === 0 ? (
        <p className="mt-1 text-xs text-muted">This product has no photos yet: add some under Media below.</p>
      ) : (
        <ul className="mt-2 flex flex-wrap gap-2">
          {photos.map((p, k) => {
            const checked = value.includes(p.url);
            return (
              <li key={p.url}>
                <label
                  className={`flex w-28 cursor-pointer flex-col items-center gap-1 rounded-lg border p-1 text-xs ${checked ? 'border-maroon bg-sand/60' : 'border-stone-line'}`}
                >
                  <img
                    src={p.thumbnail}
                    // The label's text names the photo; the picture itself says nothing more.
                    alt=""
                    width={64}
                    height={64}
                    loading="lazy"
                    className="h-16 w-16 rounded object-cover"
                  />
                  <span className="flex items-center gap-1">
                    <input
                      type="checkbox"
                      checked={checked}
                      aria-invalid={error && k === 0 ? true : undefined}
                      onChange={(e) =>
                        onChange(e.target.checked ? [...value, p.url] : value.filter((url) => url !== p.url))
                      }
                    />
                    <span className="line-clamp-2 break-all">{p.altText || p.fileName}</span>
                    <span className="sr-only"> for colour {n}</span>
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
      {gone > 0 ? (
        <p className="mt-1 text-xs text-muted">
          {gone === 1 ? 'A photo' : `${gone} photos`} of this colour no longer exist: saving unassigns them.
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1 text-xs text-red-700" data-field-error tabIndex={-1}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
