import type { ProductColour, ProductDetail } from '../shared/catalogue.js';
import { variantLabel } from '../shared/colours.js';
import { minorToMajorString } from '../shared/money.js';
import { lastLocalDay } from '../shared/zoned-time.js';

const IN_STOCK = 'https://schema.org/InStock';
const OUT_OF_STOCK = 'https://schema.org/OutOfStock';
const NEW_CONDITION = 'https://schema.org/NewCondition';

/** The address of a product page with a colour chosen: what a variant's offer links to. */
export function colourUrl(productUrl: string, colour: ProductColour): string {
  return `${productUrl}?colour=${encodeURIComponent(colour.slug)}`;
}

/**
 * The SKU of one colour and size: the product's, the colour's suffix, the size ("LK-1-TEAL-M"). A colour
 * with no suffix of its own is told apart by its slug, so no two variants share a SKU.
 */
export function variantSku(sku: string, colour: ProductColour, size: string | null): string {
  const suffix = colour.skuSuffix ?? `-${colour.slug.toUpperCase()}`;
  return `${sku}${suffix}${size ? `-${size}` : ''}`;
}

/**
 * The product's schema.org description for search engines. Without colours a `Product` with one offer per
 * size, as before. With colours a `ProductGroup` (what Google's product variants expect): one `Product` per
 * colour × size, each with its own offer, price and real availability, and the page of its colour.
 * `absolute` makes a stored photo URL a full one; `timeZone` is the shop's (settings), whose days a sale's
 * last day is counted in.
 */
export function productJsonLd(
  product: ProductDetail,
  productUrl: string,
  description: string,
  absolute: (url: string) => string,
  timeZone: string,
): Record<string, unknown> {
  const images = product.media.filter((m) => m.mediaType === 'image').map((m) => absolute(m.url));
  const brand = product.manufacturer ? { brand: { '@type': 'Brand', name: product.manufacturer } } : {};
  const sizes: Array<string | null> = product.sizes.length > 0 ? product.sizes : [null];
  if (product.colours.length === 0) {
    return {
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: product.title,
      description,
      image: images,
      sku: product.sku,
      ...brand,
      // One offer per size, each with its real availability (a sold-out size is OutOfStock).
      offers: sizes.map((size) => ({
        '@type': 'Offer',
        url: productUrl,
        ...(size ? { name: `${product.title} (${size})`, sku: `${product.sku}-${size}` } : {}),
        ...chargedPrice(product.sale, product.priceMinor, product.currency, timeZone),
        availability: size && product.soldOutSizes.includes(size) ? OUT_OF_STOCK : IN_STOCK,
        itemCondition: NEW_CONDITION,
      })),
    };
  }
  return {
    '@context': 'https://schema.org',
    '@type': 'ProductGroup',
    name: product.title,
    description,
    url: productUrl,
    image: images,
    ...brand,
    productGroupID: product.sku,
    variesBy: ['https://schema.org/color', ...(product.sizes.length > 0 ? ['https://schema.org/size'] : [])],
    hasVariant: product.colours.flatMap((colour) => {
      const url = colourUrl(productUrl, colour);
      const photos = colour.images.length > 0 ? colour.images.map(absolute) : images;
      const price = chargedPrice(
        colour.sale,
        colour.priceMinor ?? product.priceMinor,
        product.currency,
        timeZone,
      );
      return sizes.map((size) => ({
        '@type': 'Product',
        name: `${product.title} (${variantLabel(colour.name, size)})`,
        sku: variantSku(product.sku, colour, size),
        inProductGroupWithID: product.sku,
        color: colour.name,
        ...(size ? { size } : {}),
        image: photos,
        offers: {
          '@type': 'Offer',
          url,
          ...price,
          availability: size && colour.soldOutSizes.includes(size) ? OUT_OF_STOCK : IN_STOCK,
          itemCondition: NEW_CONDITION,
        },
      }));
    }),
  };
}

/**
 * An offer's price: the one charged (the sale's, while one runs; decision 0037), and for a sale with an end
 * the last day it is charged, as a date in the shop's time zone (lastLocalDay): the date a shopper there
 * would name, and a sale ending exactly at local midnight is valid until the day before.
 */
function chargedPrice(
  sale: ProductDetail['sale'],
  regularMinor: number,
  currency: string,
  timeZone: string,
): { price: string; priceCurrency: string; priceValidUntil?: string } {
  return {
    price: minorToMajorString(sale?.salePriceMinor ?? regularMinor, currency),
    priceCurrency: currency.toUpperCase(),
    ...(sale?.endsAt ? { priceValidUntil: lastLocalDay(sale.endsAt, timeZone) } : {}),
  };
}
