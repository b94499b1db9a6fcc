/**
 * The part of the schema.org vocabulary the store's JSON-LD uses, checked in (nothing in the repository or its
 * dependencies carries the vocabulary, and tests download nothing). Taken from schema.org's definitions
 * (https://schema.org/Product, /ProductGroup, /Offer, /ItemAvailability, /OfferItemCondition and each
 * property's page, version 29): each type with its parent types, each property with its `domainIncludes` and
 * `rangeIncludes`, each enumeration with its members. A type or property missing here is reported as unknown:
 * add it from schema.org's page, not from what the code happens to write.
 */

const TYPES: Record<string, readonly string[]> = {
  Thing: [],
  Intangible: ['Thing'],
  CreativeWork: ['Thing'],
  MediaObject: ['CreativeWork'],
  ImageObject: ['MediaObject'],
  TextObject: ['MediaObject'],
  Person: ['Thing'],
  Organization: ['Thing'],
  Event: ['Thing'],
  Product: ['Thing'],
  ProductGroup: ['Product'],
  ProductModel: ['Product'],
  Offer: ['Intangible'],
  AggregateOffer: ['Offer'],
  Demand: ['Intangible'],
  Service: ['Intangible'],
  Brand: ['Intangible'],
  DefinedTerm: ['Intangible'],
  StructuredValue: ['Intangible'],
  QuantitativeValue: ['StructuredValue'],
  PriceSpecification: ['StructuredValue'],
  Enumeration: ['Intangible'],
  ItemAvailability: ['Enumeration'],
  OfferItemCondition: ['Enumeration'],
  QualitativeValue: ['Enumeration'],
  SizeSpecification: ['QualitativeValue'],
  TradeAction: ['Thing'],
};

/** Data types: Text, and URL which is a Text; Number. */
const DATA_TYPES = new Set(['Text', 'URL', 'Number', 'Date']);

const PROPERTIES: Record<string, { domain: readonly string[]; range: readonly string[] }> = {
  name: { domain: ['Thing'], range: ['Text'] },
  description: { domain: ['Thing'], range: ['Text', 'TextObject'] },
  url: { domain: ['Thing'], range: ['URL'] },
  image: { domain: ['Thing'], range: ['ImageObject', 'URL'] },
  sku: { domain: ['Demand', 'Offer', 'Product'], range: ['Text'] },
  brand: { domain: ['Organization', 'Person', 'Product', 'Service'], range: ['Brand', 'Organization'] },
  productGroupID: { domain: ['ProductGroup'], range: ['Text'] },
  variesBy: { domain: ['ProductGroup'], range: ['DefinedTerm', 'Text'] },
  hasVariant: { domain: ['ProductGroup'], range: ['Product'] },
  isVariantOf: { domain: ['Product'], range: ['ProductGroup', 'ProductModel'] },
  inProductGroupWithID: { domain: ['Product'], range: ['Text'] },
  color: { domain: ['Offer', 'Product'], range: ['Text'] },
  size: {
    domain: ['CreativeWork', 'Offer', 'Product'],
    range: ['DefinedTerm', 'QuantitativeValue', 'SizeSpecification', 'Text'],
  },
  offers: {
    domain: ['AggregateOffer', 'CreativeWork', 'Event', 'Product', 'Service'],
    range: ['Demand', 'Offer'],
  },
  price: { domain: ['Offer', 'PriceSpecification', 'TradeAction'], range: ['Number', 'Text'] },
  priceCurrency: { domain: ['Offer', 'PriceSpecification', 'TradeAction'], range: ['Text'] },
  priceValidUntil: { domain: ['Offer'], range: ['Date'] },
  availability: { domain: ['Demand', 'Offer'], range: ['ItemAvailability'] },
  itemCondition: { domain: ['Demand', 'Offer', 'Product'], range: ['OfferItemCondition'] },
};

const MEMBERS: Record<string, readonly string[]> = {
  ItemAvailability: [
    'BackOrder',
    'Discontinued',
    'InStock',
    'InStoreOnly',
    'LimitedAvailability',
    'MadeToOrder',
    'OnlineOnly',
    'OutOfStock',
    'PreOrder',
    'PreSale',
    'Reserved',
    'SoldOut',
  ],
  OfferItemCondition: ['DamagedCondition', 'NewCondition', 'RefurbishedCondition', 'UsedCondition'],
};

const SCHEMA = 'https://schema.org/';

/** The type and every type it is a kind of. */
function ancestors(type: string): Set<string> {
  const out = new Set<string>([type]);
  for (const parent of TYPES[type] ?? []) for (const a of ancestors(parent)) out.add(a);
  return out;
}

function isAbsoluteUrl(text: string): boolean {
  try {
    return /^https?:$/.test(new URL(text).protocol);
  } catch {
    return false;
  }
}

/** Whether a plain value (not a node) fits one of a property's ranges. */
function fitsRange(value: unknown, range: readonly string[]): boolean {
  if (typeof value === 'number') return range.includes('Number');
  if (typeof value !== 'string') return false;
  if (range.includes('Text') || range.includes('Number')) return true;
  if (range.includes('URL') && isAbsoluteUrl(value)) return true;
  // A Date is ISO 8601's calendar date (YYYY-MM-DD), a real one.
  if (range.includes('Date') && /^\d{4}-\d{2}-\d{2}$/.test(value))
    return new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
  // An enumeration's member is written as its schema.org URL.
  return range.some((r) => {
    const member = value.startsWith(SCHEMA) ? value.slice(SCHEMA.length) : null;
    return member !== null && (MEMBERS[r] ?? []).includes(member);
  });
}

/**
 * Every way a JSON-LD document strays from the vocabulary: an unknown type or property, a property used on a
 * type outside its domain, a value outside its range. Empty when it keeps to schema.org.
 */
export function schemaOrgProblems(doc: unknown, path = '$'): string[] {
  if (Array.isArray(doc)) return doc.flatMap((d, i) => schemaOrgProblems(d, `${path}[${i}]`));
  if (!doc || typeof doc !== 'object') return [`${path}: not a node`];
  const node = doc as Record<string, unknown>;
  const problems: string[] = [];
  const context = node['@context'];
  if (context !== undefined && context !== 'https://schema.org')
    problems.push(`${path}: @context ${String(context)}`);
  const type = node['@type'];
  if (typeof type !== 'string' || !(type in TYPES))
    return [...problems, `${path}: unknown @type ${String(type)}`];
  const kinds = ancestors(type);
  for (const [key, raw] of Object.entries(node)) {
    if (key.startsWith('@')) continue;
    const property = PROPERTIES[key];
    const at = `${path}.${key}`;
    if (!property) {
      problems.push(`${at}: no such schema.org property`);
      continue;
    }
    if (!property.domain.some((d) => kinds.has(d))) problems.push(`${at}: not a property of ${type}`);
    for (const [i, value] of (Array.isArray(raw) ? raw : [raw]).entries()) {
      const where = Array.isArray(raw) ? `${at}[${i}]` : at;
      if (value && typeof value === 'object') {
        const inner = (value as Record<string, unknown>)['@type'];
        const innerKinds = typeof inner === 'string' ? ancestors(inner) : new Set<string>();
        if (!property.range.some((r) => !DATA_TYPES.has(r) && innerKinds.has(r)))
          problems.push(`${where}: a ${String(inner)} is not in the range of ${key}`);
        problems.push(...schemaOrgProblems(value, where));
      } else if (!fitsRange(value, property.range)) {
        problems.push(`${where}: ${JSON.stringify(value)} is not in the range of ${key}`);
      }
    }
  }
  return problems;
}

/** A property named by its schema.org URL ("https://schema.org/color" → "color"), if it is one. */
export function schemaOrgProperty(url: string): string | null {
  const name = url.startsWith(SCHEMA) ? url.slice(SCHEMA.length) : '';
  return name in PROPERTIES ? name : null;
}

/**
 * What Google's product variant rich results require (developers.google.com/search/docs/appearance/
 * structured-data/product-variants): a ProductGroup with name, productGroupID, variesBy and hasVariant; each
 * variant a Product with name and an offer with price, priceCurrency and availability, and every property
 * the group varies by.
 */
export function googleVariantProblems(doc: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (doc['@type'] !== 'ProductGroup') return ['not a ProductGroup'];
  for (const key of ['name', 'productGroupID'])
    if (typeof doc[key] !== 'string' || doc[key] === '') problems.push(`group: no ${key}`);
  const variesBy = Array.isArray(doc.variesBy) ? (doc.variesBy as unknown[]) : [];
  if (variesBy.length === 0) problems.push('group: no variesBy');
  const varying = variesBy.map((v) => (typeof v === 'string' ? schemaOrgProperty(v) : null));
  if (varying.includes(null))
    problems.push(`group: variesBy names no schema.org property: ${JSON.stringify(variesBy)}`);
  const variants = Array.isArray(doc.hasVariant) ? (doc.hasVariant as Array<Record<string, unknown>>) : [];
  if (variants.length === 0) problems.push('group: no hasVariant');
  for (const [i, v] of variants.entries()) {
    const at = `variant ${i}`;
    if (v['@type'] !== 'Product') problems.push(`${at}: not a Product`);
    if (typeof v.name !== 'string' || v.name === '') problems.push(`${at}: no name`);
    for (const p of varying)
      if (p && (typeof v[p] !== 'string' || v[p] === '')) problems.push(`${at}: no ${p}`);
    const offers = (Array.isArray(v.offers) ? v.offers : [v.offers]) as Array<
      Record<string, unknown> | undefined
    >;
    if (offers.length === 0 || !offers[0]) problems.push(`${at}: no offers`);
    for (const offer of offers) {
      if (!offer) continue;
      if (!/^\d+(\.\d+)?$/.test(String(offer.price ?? '')))
        problems.push(`${at}: price ${String(offer.price)}`);
      if (!/^[A-Z]{3}$/.test(String(offer.priceCurrency ?? '')))
        problems.push(`${at}: priceCurrency ${String(offer.priceCurrency)}`);
      if (typeof offer.availability !== 'string') problems.push(`${at}: no availability`);
      if (offer.priceValidUntil !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(String(offer.priceValidUntil)))
        problems.push(`${at}: priceValidUntil ${String(offer.priceValidUntil)}`);
    }
  }
  return problems;
}
