import { cardView } from '@shared/card-view';
import type { CardColour, ProductCard as ProductCardData } from '@shared/catalogue';
import { formatMoney } from '@shared/money';
import { responsiveImage } from '@shared/responsive-image';
import { sortSizes } from '@shared/sizes';
import { type MouseEvent, useId } from 'react';
import { useLocation } from 'wouter';
import { useSizedPurchase } from '../../lib/cart/use-sized-purchase';
import { paths } from '../../lib/paths';
import { useEarlyInput } from '../../lib/use-early-input';
import { useImageState } from '../../lib/use-image-state';
import { Button } from '../ui/button';
import { cardHref } from './card-colour';
import { PriceWithSale } from './sale-price';

const PLACEHOLDER = '/placeholder.svg';
/** Cards are one column on phones, two from md, three from lg (product-grid.tsx, related-products.tsx). */
const CARD_SIZES = '(min-width: 1024px) 33vw, (min-width: 768px) 50vw, 100vw';
/** Swatches a card shows before "+N": a card is a glance, the product page has them all. */
const MAX_SWATCHES = 6;

export function ProductCard({
  product,
  eager = false,
  priority = false,
}: {
  product: ProductCardData;
  /** Above the fold: load at once. */
  eager?: boolean;
  /** The likely largest image of the page: fetched before the others. */
  priority?: boolean;
}) {
  const [, navigate] = useLocation();
  const {
    colour,
    priceMinor: price,
    sale,
    soldOutSizes,
    soldOutInColour,
    soldOut: gone,
    image: photo,
  } = cardView(product);
  const { size, hasSizes, soldOut, isSoldOut, missingSize, buying, chooseSize, addToCart, buyNow } =
    useSizedPurchase({
      id: product.id,
      sizes: product.sizes,
      // What the shopper sees is what the cart compares with the server's price: the sale's, when one runs.
      priceMinor: sale?.salePriceMinor ?? price,
      colour: colour?.name ?? null,
      soldOut: gone,
      soldOutSizes,
    });
  // A size picked before the page was hydrated stays picked.
  const sizeSelect = useEarlyInput<HTMLSelectElement>((select) => {
    if (select.value !== size) chooseSize(select.value);
  });
  const picture = useImageState();
  const failed = picture.state === 'failed';
  const loaded = picture.state !== 'loading';
  const sizeId = useId();
  const errorId = useId();
  const soldOutId = useId();
  // A card found through a colour opens the product in that colour.
  const href = cardHref(paths.product(product.id), product);
  // Uploaded images come with web variants (srcset); demo and URL images are a single file.
  const responsive = failed ? null : responsiveImage(photo);

  // The whole card opens the product, except its own controls.
  const openFromCard = (event: MouseEvent<HTMLElement>) => {
    if ((event.target as HTMLElement).closest('a,button,select,label')) return;
    navigate(href);
  };

  const image = (
    <img
      ref={picture.ref}
      src={failed ? PLACEHOLDER : (photo?.url ?? PLACEHOLDER)}
      srcSet={responsive?.srcSet}
      sizes={responsive ? CARD_SIZES : undefined}
      alt={photo?.alt ?? product.title}
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding={eager ? undefined : 'async'}
      width={responsive?.width ?? 800}
      height={responsive?.height ?? 800}
      // Never hidden: the pulsing placeholder sits behind the picture, which covers it as it arrives. A
      // picture that depends on a script to appear stays invisible when the script is late or absent.
      className="relative h-full w-full object-cover transition duration-500 group-hover:scale-[1.03]"
      data-state={picture.state}
      onLoad={picture.onLoad}
      // A failed picture falls back to the placeholder (dropping any srcset, which would win over src).
      onError={picture.onError}
    />
  );

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the title link is the keyboard path to the product.
    <article
      className="group flex cursor-pointer flex-col overflow-hidden rounded-2xl border border-stone-line bg-white/70 shadow-sm transition hover:shadow-md"
      onClick={openFromCard}
      data-testid="product-card"
    >
      <div className="relative aspect-square overflow-hidden bg-sand">
        {!loaded ? (
          <div className="card-picture-skeleton skeleton absolute inset-0" aria-hidden="true" />
        ) : null}
        {responsive?.avifSrcSet ? (
          <picture className="contents">
            <source type="image/avif" srcSet={responsive.avifSrcSet} sizes={CARD_SIZES} />
            {image}
          </picture>
        ) : (
          image
        )}
        {soldOut ? (
          <p
            id={soldOutId}
            className="absolute top-3 left-3 rounded-full bg-ink px-3 py-1 text-xs font-medium tracking-wide text-ivory uppercase"
            data-testid="product-card-sold-out"
          >
            Sold out
          </p>
        ) : null}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        {product.manufacturer ? (
          <p className="text-xs font-medium tracking-[0.14em] text-gold uppercase">{product.manufacturer}</p>
        ) : null}
        <h3 className="line-clamp-2 font-serif text-lg leading-snug text-ink">
          <a
            href={href}
            onClick={(e) => {
              e.preventDefault();
              navigate(href);
            }}
            className="hover:underline"
          >
            {product.title}
          </a>
        </h3>
        <p className="line-clamp-2 text-sm text-muted">{product.description}</p>
        {product.colours ? <Swatches colours={product.colours} shown={colour} /> : null}
        <p className="mt-auto pt-1 text-lg font-semibold text-ink" data-testid="product-price">
          <PriceWithSale
            regularMinor={price}
            sale={sale}
            format={(minor) => formatMoney(minor, product.currency)}
          />
        </p>
        {hasSizes && !soldOut ? (
          <div>
            <label htmlFor={sizeId} className="sr-only">
              {colour ? `Size for ${product.title}, ${colour.name}` : `Size for ${product.title}`}
            </label>
            <select
              ref={sizeSelect}
              id={sizeId}
              value={size}
              onChange={(e) => {
                chooseSize(e.target.value);
              }}
              aria-invalid={missingSize}
              aria-describedby={missingSize ? errorId : undefined}
              className={`w-full rounded-lg border bg-white px-3 py-2 text-sm ${missingSize ? 'border-red-700' : 'border-stone-line'}`}
            >
              <option value="">Select size</option>
              {sortSizes(product.sizes).map((s) =>
                // As on the product page: shown, named sold out (the option's own text, which screen
                // readers read), and not to be chosen.
                isSoldOut(s) ? (
                  <option key={s} value={s} disabled>
                    {soldOutInColour.includes(s) && colour
                      ? `${s}, sold out in ${colour.name}`
                      : `${s}, sold out`}
                  </option>
                ) : (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ),
              )}
            </select>
            {missingSize ? (
              <p id={errorId} className="mt-1 text-xs text-red-700" role="alert">
                Please select a size
              </p>
            ) : null}
          </div>
        ) : null}
        <div className="flex gap-2 pt-1">
          <Button
            className="flex-1 px-3"
            onClick={addToCart}
            disabled={soldOut}
            aria-describedby={soldOut ? soldOutId : undefined}
          >
            Add to Cart
          </Button>
          <Button
            variant="secondary"
            className="flex-1 px-3"
            onClick={buyNow}
            disabled={soldOut || buying}
            aria-describedby={soldOut ? soldOutId : undefined}
          >
            {buying ? 'Processing...' : 'Buy Now'}
          </Button>
        </div>
      </div>
    </article>
  );
}

/**
 * A product's colours at a glance: each a dot of its swatch colour (or its photo), named for screen readers
 * and on hover, the one the card shows ringed. Not controls: the card opens the product, where colours are
 * chosen.
 */
function Swatches({ colours, shown }: { colours: CardColour[]; shown: CardColour | null }) {
  const listed = colours.slice(0, MAX_SWATCHES);
  const more = colours.length - listed.length;
  return (
    <ul
      className="flex flex-wrap items-center gap-1.5"
      aria-label="Colours"
      data-testid="product-card-colours"
    >
      {listed.map((c) => (
        <li
          key={c.name}
          title={c.name}
          className={`h-5 w-5 overflow-hidden rounded-full border border-stone-line bg-sand ${c === shown ? 'ring-2 ring-ink ring-offset-1' : ''}`}
        >
          {/* An SVG fill or an <img>, never a style attribute: the page's CSP allows no inline styles. */}
          {c.hex ? (
            <svg aria-hidden="true" viewBox="0 0 20 20" className="h-full w-full">
              <circle cx="10" cy="10" r="10" fill={c.hex} />
            </svg>
          ) : c.image ? (
            <img
              src={c.image}
              alt=""
              aria-hidden="true"
              className="h-full w-full object-cover"
              loading="lazy"
            />
          ) : null}
          <span className="sr-only">{c === shown && colours.length > 1 ? `${c.name} (shown)` : c.name}</span>
        </li>
      ))}
      {more > 0 ? <li className="text-xs text-muted">{`+${more} more`}</li> : null}
    </ul>
  );
}

export function ProductCardSkeleton() {
  return (
    <div className="overflow-hidden rounded-2xl border border-stone-line bg-white/70" aria-hidden="true">
      <div className="skeleton aspect-square" />
      <div className="space-y-3 p-4">
        <div className="skeleton h-3 w-24 rounded" />
        <div className="skeleton h-5 w-3/4 rounded" />
        <div className="skeleton h-4 w-full rounded" />
        <div className="skeleton h-6 w-20 rounded" />
        <div className="skeleton h-10 w-full rounded-full" />
      </div>
    </div>
  );
}
