import type { ProductDetail } from '@shared/catalogue';
import type { LineFit } from '@shared/checkout-input';
import { photosForColour } from '@shared/colours';
import { formatMoneyExact } from '@shared/money';
import { sortSizes } from '@shared/sizes';
import { ArrowLeft } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { PriceWithSale } from '../../components/catalogue/sale-price';
import { NotFoundView } from '../../components/site/not-found-view';
import { Button, buttonClass } from '../../components/ui/button';
import { useSizedPurchase } from '../../lib/cart/use-sized-purchase';
import { paths } from '../../lib/paths';
import { toast } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { useEarlyInput } from '../../lib/use-early-input';
import { usePageTitle } from '../../lib/use-page-title';
import { useSiteSettings } from '../../lib/use-site-settings';
import { BackInStock } from './back-in-stock';
import { ColourSwatches } from './colour-swatches';
import { FitFinder } from './fit-finder';
import { colourInSearch, defaultColour, isColourSoldOut, searchWithColour } from './product-colour';
import { ProductGallery } from './product-gallery';
import { RelatedProducts } from './related-products';
import { SizeDetailsTable } from './size-details-table';

export function ProductPage() {
  const { id = '' } = useParams<{ id: string }>();
  const product = trpc.catalogue.byId.useQuery(
    { id },
    // A "not found" the server rendered the page with stands: asking again on hydration would flash a skeleton.
    { retry: (n, err) => err.data?.code !== 'NOT_FOUND' && n < 2, retryOnMount: false },
  );
  const notFound = product.error?.data?.code === 'NOT_FOUND';
  // The colour a shared link names (an unknown one names none): the title and canonical link say it.
  const search = useSearch();
  const linkedColour = product.data ? colourInSearch(product.data.colours, search) : undefined;
  // Asked for beside the product, not after it: one round trip in the browser, one render pass less on the
  // server (RelatedProducts below reads the same cached answer).
  trpc.catalogue.related.useQuery({ id }, { enabled: id !== '' && !notFound });

  // The spec's warning stays; its redirect to / after a moment does not (WCAG 2.2.1): the page below stays.
  useEffect(() => {
    if (notFound) console.warn(`Product not found: ${id}`);
  }, [notFound, id]);

  usePageTitle(
    product.data
      ? linkedColour
        ? `${product.data.title} — ${linkedColour.name}`
        : product.data.title
      : notFound
        ? 'Product not found'
        : null,
    {
      description: product.data ? product.data.description || product.data.title : null,
      canonical: product.data !== undefined,
      canonicalSearch: linkedColour ? searchWithColour('', linkedColour.slug) : '',
      noindex: notFound,
    },
  );

  if (product.isPending) return <ProductSkeleton />;
  // A page of its own, answered 404 by the server (src/http/seo.ts); the shopper stays on it until they go.
  if (notFound) {
    return (
      <NotFoundView
        heading="Product not found"
        message="This product is no longer in the store, or the link to it is mistyped."
      />
    );
  }
  if (product.isError) {
    return (
      <p role="alert" className="mx-auto max-w-7xl px-4 py-20 text-center text-red-800">
        Error loading product catalog: {product.error.message}
      </p>
    );
  }
  return <ProductView product={product.data} />;
}

function ProductView({ product }: { product: ProductDetail }) {
  const search = useSearch();
  const [location, navigate] = useLocation();
  // The address holds the choice (a shared link opens that colour); without one, the first in stock.
  const colour = colourInSearch(product.colours, search) ?? defaultColour(product.colours, product.sizes);
  const hasColours = product.colours.length > 0;
  const [missingColour, setMissingColour] = useState(false);
  // The measurements of the fit finder's last answer on this page: they go with the size added (decision 0040).
  const [fit, setFit] = useState<LineFit | null>(null);
  const purchase = useSizedPurchase({
    id: product.id,
    sizes: product.sizes,
    // The price the shopper sees (the sale's, when one runs) is the one the cart checks against the server.
    priceMinor:
      (colour ? colour.sale : product.sale)?.salePriceMinor ?? colour?.priceMinor ?? product.priceMinor,
    colour: colour?.name ?? null,
    soldOut: colour ? isColourSoldOut(colour, product.sizes) : product.soldOut,
    soldOutSizes: colour ? colour.soldOutSizes : product.soldOutSizes,
    fit,
  });
  const { size, hasSizes, soldOut, isSoldOut, missingSize, buying, chooseSize } = purchase;
  const soldOutSizes = colour ? colour.soldOutSizes : product.soldOutSizes;
  const sizeDetail = colour?.sizeDetail ?? product.sizeDetail;
  // Replacing the entry: trying colours on is not a trail Back has to walk back through.
  const chooseColour = (slug: string) => {
    setMissingColour(false);
    navigate(`${location}${searchWithColour(window.location.search, slug)}`, { replace: true });
  };
  const colourChosen = () => {
    if (!hasColours || colour) return true;
    setMissingColour(true);
    toast.error('Please select a colour');
    return false;
  };
  const addToCart = () => {
    if (colourChosen()) purchase.addToCart();
  };
  const buyNow = () => {
    if (colourChosen()) purchase.buyNow();
  };
  const settings = useSiteSettings();
  const sizeGroupId = useId();
  const soldOutId = `${sizeGroupId}-sold-out`;
  // A size picked before the page was hydrated stays picked.
  const sizeGroup = useEarlyInput<HTMLFieldSetElement>((group) => {
    const picked = group.querySelector<HTMLInputElement>('input[type="radio"]:checked');
    if (picked && picked.value !== size) chooseSize(picked.value);
  });
  const images = photosForColour(
    product.media.filter((m) => m.mediaType === 'image'),
    product.colours,
    colour,
  );
  const tags = hasColours ? product.tags : [...product.tags, ...product.colors];

  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <button
        type="button"
        onClick={() => window.history.back()}
        className="mb-6 inline-flex items-center gap-1 text-sm text-muted hover:text-ink"
      >
        <ArrowLeft aria-hidden="true" className="h-4 w-4" /> Back
      </button>
      {/* grid-cols-1 is minmax(0, 1fr): below lg the one column is the screen's width, never its widest
          content's (the Size Details table scrolls in its own box instead of widening the page). */}
      <div className="grid grid-cols-1 gap-10 lg:grid-cols-2">
        {/* A new colour starts at its own first photo. */}
        <ProductGallery key={colour?.slug ?? ''} images={images} title={product.title} />
        <div data-testid="product-detail" className="min-w-0 wrap-anywhere">
          {product.manufacturer ? (
            <p className="text-xs font-medium tracking-[0.14em] text-gold uppercase">
              {product.manufacturerUrl ? (
                <a
                  href={product.manufacturerUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="hover:underline"
                >
                  {product.manufacturer}
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              ) : (
                product.manufacturer
              )}
            </p>
          ) : null}
          <h1 className="mt-2 font-serif text-3xl text-ink sm:text-4xl">{product.title}</h1>
          <p className="mt-4 text-2xl font-semibold" data-testid="product-detail-price">
            <PriceWithSale
              regularMinor={colour?.priceMinor ?? product.priceMinor}
              sale={colour ? colour.sale : product.sale}
              format={(minor) => formatMoneyExact(minor, product.currency)}
            />
          </p>
          {soldOut ? (
            <p
              id={soldOutId}
              className="mt-2 inline-block rounded-full bg-ink px-3 py-1 text-sm font-medium text-ivory"
              data-testid="product-sold-out"
            >
              Sold out
            </p>
          ) : null}
          <p className="mt-6 leading-relaxed text-muted">{product.description}</p>
          <dl className="mt-6 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-muted">SKU</dt>
            <dd>{`${product.sku}${colour?.skuSuffix ?? ''}`}</dd>
          </dl>
          {tags.length > 0 ? (
            <ul className="mt-4 flex flex-wrap gap-2" aria-label="Tags and colours">
              {product.tags.map((t) => (
                <li key={`t-${t}`} className="rounded-full bg-sand px-3 py-1 text-xs">
                  {t}
                </li>
              ))}
              {/* A product with colour variants shows them as swatches instead. */}
              {(hasColours ? [] : product.colors).map((c) => (
                <li key={`c-${c}`} className="rounded-full border border-stone-line px-3 py-1 text-xs">
                  {c}
                </li>
              ))}
            </ul>
          ) : null}

          {hasColours ? (
            <ColourSwatches
              colours={product.colours}
              chosen={colour}
              sizes={product.sizes}
              missing={missingColour}
              onChoose={chooseColour}
            />
          ) : null}
          {hasSizes ? (
            <fieldset
              ref={sizeGroup}
              className="mt-8"
              aria-describedby={missingSize ? `${sizeGroupId}-error` : undefined}
            >
              <legend className="text-sm font-medium">Size</legend>
              <div className="mt-2 flex flex-wrap gap-2">
                {sortSizes(product.sizes).map((s) => {
                  const unavailable = isSoldOut(s);
                  return (
                    <label key={s} className={unavailable ? 'cursor-not-allowed' : 'cursor-pointer'}>
                      <input
                        type="radio"
                        name={sizeGroupId}
                        value={s}
                        checked={size === s}
                        disabled={unavailable}
                        aria-label={unavailable ? `${s}, sold out` : undefined}
                        onChange={() => {
                          chooseSize(s);
                        }}
                        className="peer sr-only"
                      />
                      {unavailable ? (
                        <span className="inline-flex h-11 min-w-11 flex-col items-center justify-center rounded-lg border border-dashed border-stone-line px-3 text-sm leading-tight text-muted">
                          <span className="line-through">{s}</span>
                          <span className="text-[0.65rem] tracking-wide uppercase">Sold out</span>
                        </span>
                      ) : (
                        <span className="inline-flex h-11 min-w-11 items-center justify-center rounded-lg border border-stone-line px-3 text-sm peer-checked:border-maroon peer-checked:bg-maroon peer-checked:text-ivory peer-focus-visible:outline-2 peer-focus-visible:outline-maroon">
                          {s}
                        </span>
                      )}
                    </label>
                  );
                })}
              </div>
              {missingSize ? (
                <p id={`${sizeGroupId}-error`} role="alert" className="mt-2 text-sm text-red-700">
                  Please select a size
                </p>
              ) : null}
            </fieldset>
          ) : null}
          {hasSizes ? (
            <FitFinder
              sizes={sortSizes(product.sizes)}
              detail={sizeDetail}
              onChoose={chooseSize}
              onMeasured={setFit}
              soldOutSizes={soldOut ? product.sizes : soldOutSizes}
            />
          ) : null}

          <BackInStock
            // A wish is for one colour: another colour starts a form of its own.
            key={colour?.slug ?? ''}
            productId={product.id}
            colour={colour?.name ?? null}
            sizes={sortSizes(product.sizes).filter((s) => soldOut || soldOutSizes.includes(s))}
          />

          <div className="mt-8 flex flex-wrap gap-3">
            <Button
              onClick={addToCart}
              disabled={soldOut || (hasSizes && !size)}
              aria-describedby={soldOut ? soldOutId : undefined}
            >
              Add to Cart
            </Button>
            <Button
              variant="secondary"
              onClick={buyNow}
              disabled={soldOut || (hasSizes && !size) || buying}
              aria-describedby={soldOut ? soldOutId : undefined}
            >
              {buying ? 'Processing...' : 'Buy Now'}
            </Button>
            <Link href={paths.home()} className={buttonClass('secondary')}>
              Continue Shopping
            </Link>
          </div>

          <SizeDetailsTable sizes={sortSizes(product.sizes)} detail={sizeDetail} />
          {settings.data?.disclaimer ? (
            <p className="mt-10 border-t border-stone-line pt-6 text-xs leading-relaxed text-muted">
              {settings.data.disclaimer}
            </p>
          ) : null}
        </div>
      </div>
      <RelatedProducts productId={product.id} />
    </div>
  );
}

function ProductSkeleton() {
  return (
    <div
      className="mx-auto grid max-w-7xl grid-cols-1 gap-10 px-4 py-12 sm:px-6 lg:grid-cols-2 lg:px-8"
      aria-hidden="true"
    >
      <div className="skeleton aspect-square rounded-2xl" />
      <div className="space-y-4">
        <div className="skeleton h-4 w-32 rounded" />
        <div className="skeleton h-9 w-3/4 rounded" />
        <div className="skeleton h-7 w-28 rounded" />
        <div className="skeleton h-24 w-full rounded" />
      </div>
    </div>
  );
}
