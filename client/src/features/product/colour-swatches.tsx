import type { ProductColour } from '@shared/catalogue';
import { useId } from 'react';
import { useEarlyInput } from '../../lib/use-early-input';
import { isColourSoldOut } from './product-colour';

/**
 * The colours of a product as a radio group: each named, with its swatch (or its first photo) as the chip.
 * Native radios, so arrow keys move the choice and Tab leaves the group, as every radio group does. A
 * `radiogroup` rather than a fieldset: the size picker is the page's one fieldset of choices, which is how
 * the store's journeys (and the before-hydration pick-up) find a size.
 */
export function ColourSwatches({
  colours,
  chosen,
  sizes,
  missing,
  onChoose,
}: {
  colours: readonly ProductColour[];
  chosen: ProductColour | undefined;
  sizes: readonly string[];
  /** A purchase was tried with no colour chosen: the message shows under the group. */
  missing: boolean;
  onChoose: (slug: string) => void;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const labelId = `${id}-label`;
  // A swatch picked before the page was hydrated stays picked.
  const group = useEarlyInput<HTMLDivElement>((element) => {
    const picked = element.querySelector<HTMLInputElement>('input[type="radio"]:checked');
    if (picked && picked.value !== chosen?.slug) onChoose(picked.value);
  });
  return (
    <div
      ref={group}
      role="radiogroup"
      aria-labelledby={labelId}
      aria-describedby={missing ? errorId : undefined}
      className="mt-8"
      data-testid="colour-swatches"
    >
      <p className="text-sm font-medium">
        <span id={labelId}>Colour</span>
        {chosen ? (
          // The checked radio says the same to a screen reader; this is for the eye.
          <span aria-hidden="true" className="font-normal text-muted">
            : {chosen.name}
          </span>
        ) : null}
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        {colours.map((c) => {
          const soldOut = isColourSoldOut(c, sizes);
          return (
            <label key={c.slug} className="cursor-pointer">
              <input
                type="radio"
                name={id}
                value={c.slug}
                checked={chosen?.slug === c.slug}
                aria-label={soldOut ? `${c.name}, sold out` : undefined}
                onChange={() => onChoose(c.slug)}
                className="peer sr-only"
              />
              <span className="inline-flex h-11 items-center gap-2 rounded-full border border-stone-line py-1 pr-4 pl-1.5 text-sm peer-checked:border-maroon peer-checked:font-semibold peer-checked:ring-2 peer-checked:ring-maroon peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-maroon">
                <Chip colour={c} />
                <span className={soldOut ? 'text-muted line-through' : undefined}>{c.name}</span>
                {soldOut ? (
                  <span className="text-[0.65rem] tracking-wide text-muted uppercase">Sold out</span>
                ) : null}
              </span>
            </label>
          );
        })}
      </div>
      {missing ? (
        <p id={errorId} role="alert" className="mt-2 text-sm text-red-700">
          Please select a colour
        </p>
      ) : null}
    </div>
  );
}

/**
 * The swatch as an SVG fill, never a style attribute: the page's CSP allows no inline styles, so a
 * server-rendered `style` would be dropped. Without a swatch, the colour's first photo; without either, none.
 */
function Chip({ colour }: { colour: ProductColour }) {
  if (colour.hex) {
    return (
      <svg aria-hidden="true" viewBox="0 0 32 32" className="h-8 w-8 shrink-0">
        <circle cx="16" cy="16" r="15" fill={colour.hex} stroke="currentColor" strokeOpacity="0.25" />
      </svg>
    );
  }
  const photo = colour.images[0];
  if (!photo) return <span aria-hidden="true" className="w-1.5" />;
  return (
    <img
      src={photo}
      alt=""
      width={32}
      height={32}
      loading="lazy"
      className="h-8 w-8 shrink-0 rounded-full object-cover"
    />
  );
}
