#!/usr/bin/env node
// Generates the demo catalogue (data/demo/catalogue.json) and its SVG product images
// (data/demo/images/*.svg). Deterministic: a seeded PRNG is used everywhere, so re-running
// produces byte-identical files. No dependencies; run from the repo root:
//   node scripts/demo/generate-demo.mjs
import { mkdirSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COLORS, hashStr, mulberry32, renderBanner, renderDetail, renderMain } from './art.mjs';
import { MANUFACTURERS, PRODUCTS, QUOTES, TYPE_CODES } from './products.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = join(ROOT, 'data', 'demo');
const IMG = join(OUT, 'images');

const SIZE_ORDER = ['XS', 'S', 'M', 'L', 'XL', 'XXL'];
const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

const slugify = (s) =>
  s
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const num = (v) => String(Math.round(v * 10) / 10);

function category(t) {
  if (['kurta', 'suit3', 'anarkali', 'maxi'].includes(t)) return 'women';
  if (t === 'lehenga') return 'lehenga';
  if (['mensk', 'sherwani', 'princecoat', 'waistcoat'].includes(t)) return 'men';
  if (t.startsWith('kid')) return 'kids';
  return 'onesize';
}

function pickSizes(p, rng) {
  if (p.oneSize) return [];
  const options = {
    women: [
      ['XS', 'S', 'M', 'L', 'XL'],
      ['S', 'M', 'L', 'XL'],
      ['XS', 'S', 'M', 'L', 'XL', 'XXL'],
      ['S', 'M', 'L', 'XL', 'XXL'],
    ],
    lehenga: [
      ['XS', 'S', 'M', 'L'],
      ['XS', 'S', 'M', 'L', 'XL'],
    ],
    men: [
      ['S', 'M', 'L', 'XL', 'XXL'],
      ['M', 'L', 'XL', 'XXL'],
      ['S', 'M', 'L', 'XL'],
      ['S', 'M', 'L', 'XL', 'XXL'],
    ],
    kids: [
      ['XS', 'S', 'M', 'L'],
      ['XS', 'S', 'M', 'L', 'XL'],
      ['S', 'M', 'L', 'XL'],
    ],
  }[category(p.t)];
  return options[Math.floor(rng() * options.length)];
}

// Graded garment measurements (inches) indexed by SIZE_ORDER position.
function sizeDetail(p, sizes) {
  const out = {};
  const cat = category(p.t);
  for (const s of sizes) {
    const i = SIZE_ORDER.indexOf(s);
    let d;
    if (cat === 'women') {
      d = {
        'Chest (in)': [34, 36, 38, 40, 42, 45][i],
        'Shoulder (in)': [13.5, 14, 14.5, 15, 15.5, 16.5][i],
        'Length (in)': p.len + [-0.5, 0, 0, 0.5, 0.5, 1][i],
        'Sleeve (in)': (p.sleeve === '34' ? [16.5, 17, 17.5, 18, 18, 18.5] : [21.5, 22, 22.5, 23, 23, 23.5])[
          i
        ],
      };
      if (p.t === 'anarkali' || p.t === 'maxi') d['Waist (in)'] = [28, 30, 32, 34, 36, 39][i];
      if (p.t === 'suit3') d['Trouser Length (in)'] = [36, 37, 38, 38.5, 39, 39.5][i];
      if (p.t === 'anarkali') d['Churidar Length (in)'] = [38, 39, 40, 40.5, 41, 41.5][i];
    } else if (cat === 'lehenga') {
      d = {
        'Bust (in)': [33, 35, 37, 39, 41, 44][i],
        'Waist (in)': [26, 28, 30, 32, 34, 37][i],
        'Choli Length (in)': [14, 14.5, 15, 15.5, 16, 16.5][i],
        'Skirt Length (in)': p.len + [-1, -0.5, 0, 0.5, 0.5, 1][i],
      };
    } else if (cat === 'men') {
      if (p.t === 'waistcoat') {
        d = {
          'Chest (in)': [36, 38, 40, 42, 44, 47][i],
          'Shoulder (in)': [13.5, 14, 14.5, 15, 15.5, 16][i],
          'Length (in)': p.len + [-1, -0.5, 0, 0.5, 1, 1.5][i],
        };
      } else {
        d = {
          'Chest (in)': [38, 40, 42, 44, 46, 49][i],
          'Shoulder (in)': [16.5, 17, 17.5, 18.5, 19, 20][i],
          'Length (in)': p.len + [-1, -0.5, 0, 0.5, 1, 1.5][i],
          'Sleeve (in)': [23, 23.5, 24, 24.5, 25, 25.5][i],
        };
        if (p.t === 'mensk') {
          d['Collar (in)'] = [14.5, 15, 15.5, 16, 16.5, 17.5][i];
          d['Shalwar Length (in)'] = [38, 39, 40, 40.5, 41, 42][i];
        }
        if (p.t === 'sherwani') d['Churidar Length (in)'] = [40, 41, 42, 42.5, 43, 44][i];
      }
    } else {
      d = {
        Age: ['2-3 yrs', '4-5 yrs', '6-7 yrs', '8-9 yrs', '10-11 yrs', '12-13 yrs'][i],
        'Chest (in)': [22, 24, 26, 28, 30, 32][i],
        'Length (in)': p.len + [-4, -2, 0, 2, 4, 6][i],
      };
      if (p.t !== 'kidfrock') d['Trouser Length (in)'] = [18, 21, 24, 27, 30, 33][i];
      else d['Tights Length (in)'] = [16, 19, 22, 25, 28, 31][i];
    }
    out[s] = Object.fromEntries(Object.entries(d).map(([k, v]) => [k, typeof v === 'number' ? num(v) : v]));
  }
  return out;
}

const PRICE_RANGE = {
  kurta: [35, 95],
  suit3: [75, 220],
  anarkali: [150, 320],
  maxi: [140, 300],
  lehenga: [290, 480],
  mensk: [45, 120],
  sherwani: [240, 460],
  princecoat: [180, 300],
  waistcoat: [55, 140],
  kidfrock: [35, 85],
  kidsuit3: [40, 90],
  kidkurta: [35, 70],
  kidsherwani: [80, 160],
  kidsk: [35, 65],
  shawl: [85, 180],
  dupatta: [35, 75],
};
function price(p, rng) {
  const [lo, hi] = PRICE_RANGE[p.t];
  let v = lo + rng() * (hi - lo);
  v = v >= 100 ? Math.round(v / 5) * 5 : Math.round(v);
  const c = rng();
  let cents = 0;
  if (c < 0.12) cents = 0.5;
  else if (c < 0.2) cents = 0.99;
  else if (c < 0.26) cents = 0.95;
  if (cents) v = Math.floor(v) - (v > lo ? 1 : 0) + cents;
  v = Math.min(480, Math.max(35, v));
  return v.toFixed(2);
}

const NOUN = {
  kurta: 'kurta',
  suit3: 'three-piece suit',
  anarkali: 'anarkali frock',
  maxi: 'maxi dress',
  lehenga: 'lehenga choli',
  mensk: 'shalwar kameez',
  sherwani: 'sherwani',
  princecoat: 'prince coat',
  waistcoat: 'waistcoat',
  kidfrock: 'girls’ frock',
  kidsuit3: 'girls’ three-piece suit',
  kidkurta: 'boys’ kurta pajama',
  kidsherwani: 'boys’ sherwani',
  kidsk: 'boys’ shalwar kameez',
  shawl: 'shawl',
  dupatta: 'dupatta',
};
const PATTERN_WORDS = {
  jaal: 'jaal print',
  block: 'block-printed butis',
  floral: 'floral print',
  paisley: 'paisley motifs',
  chikan: 'tonal chikankari',
  stripes: 'fine stripes',
  herringbone: 'herringbone weave',
  damask: 'woven damask',
  plain: 'plain weave',
};

function altText(p, view) {
  const col = p.c.filter((c) => c !== 'Gold' && c !== 'Silver').map((c) => c.toLowerCase());
  const main = col[0];
  const noun = NOUN[p.t];
  const emb =
    p.emb === 'gold'
      ? 'gold embroidery'
      : p.emb === 'silver'
        ? 'silver embroidery'
        : p.emb === 'thread'
          ? 'thread embroidery'
          : null;
  if (view === 'front') {
    if (p.t === 'shawl')
      return `Folded ${main} shawl with ${col.slice(1).join(' and ')} ${PATTERN_WORDS[p.pat]}, a woven border and twisted fringe, photographed flat on a light backdrop`;
    if (p.t === 'dupatta')
      return `Sheer ${main} dupatta draped on an invisible mannequin, showing ${emb} borders and tassels at both ends`;
    let s = `Front view of the ${main} ${noun} with ${PATTERN_WORDS[p.pat]} on an invisible mannequin`;
    if (p.t === 'suit3' || p.t === 'kidsuit3')
      s += `, styled with ${col[1] || main} trousers and the matching dupatta over one shoulder`;
    else if (p.t === 'lehenga') s += `, with a flared skirt and a sheer dupatta over one shoulder`;
    else if (p.t === 'kurta') s += `, styled with ${col[1] || main} trousers`;
    if (emb)
      s += `; ${emb} at the ${['sherwani', 'princecoat', 'kidsherwani'].includes(p.t) ? 'collar, cuffs and front edge' : ['mensk', 'waistcoat'].includes(p.t) ? 'collar' : 'neckline and hem'}`;
    return s;
  }
  if (view === 'back') {
    let s = `Back view of the ${main} ${noun}`;
    if (['lehenga', 'anarkali', 'maxi', 'kidfrock'].includes(p.t))
      s += ' showing the tie-up dori with tassels at the back neck';
    else if (p.t === 'waistcoat') s += ' showing the back half belt';
    else s += ` showing the plain back neckline${emb ? ' and embroidered hem' : ''}`;
    return s;
  }
  if (p.t === 'shawl')
    return `Close-up of the ${main} shawl border with woven ${PATTERN_WORDS[p.pat]} and twisted fringe`;
  if (emb) return `Close-up of the ${emb} and ${PATTERN_WORDS[p.pat]} on the ${main} ${noun}`;
  if (['mensk', 'kidsk', 'kidkurta', 'waistcoat'].includes(p.t))
    return `Close-up of the ${PATTERN_WORDS[p.pat]} fabric and placket buttons on the ${main} ${noun}`;
  return `Close-up of the ${PATTERN_WORDS[p.pat]} and printed border on the ${main} ${noun}`;
}

function main() {
  mkdirSync(IMG, { recursive: true });
  for (const f of readdirSync(IMG)) if (f.endsWith('.svg')) unlinkSync(join(IMG, f));

  const rng = mulberry32(20250117);
  const ids = new Set();
  const skuCount = {};
  const start = Date.UTC(2025, 0, 8, 9, 0, 0),
    end = Date.UTC(2026, 9, 28, 18, 0, 0);
  const products = [];
  let images = 0;
  // creation dates: evenly spread over the period, then shuffled so every category has old and new items
  const slots = PRODUCTS.map((_, i) => i);
  for (let i = slots.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [slots[i], slots[j]] = [slots[j], slots[i]];
  }

  PRODUCTS.forEach((p, idx) => {
    const mf = MANUFACTURERS[p.m];
    const slug = slugify(p.title);
    let id;
    do {
      id = `plink_${Array.from({ length: 16 }, () => ID_ALPHABET[Math.floor(rng() * 36)]).join('')}`;
    } while (ids.has(id));
    ids.add(id);
    skuCount[p.m] = (skuCount[p.m] || 0) + 1;
    const sizes = pickSizes(p, rng);
    const pr = price(p, rng);
    const t = start + ((end - start) * (slots[idx] + rng() * 0.8)) / PRODUCTS.length;
    const createdAt = new Date(Math.floor(t / 60000) * 60000).toISOString();
    const pageOrder = p.feat ?? (rng() < 0.18 ? 999 : 100 + idx * 10);

    // media: vary 1..3 images per product
    const hasBack = !['shawl', 'dupatta'].includes(p.t);
    const plan = [
      ['front'],
      ['front', 'detail'],
      ['front', 'detail', 'back'],
      hasBack ? ['front', 'back'] : ['front', 'detail'],
    ][(idx * 7 + 2) % 4];
    const views = plan.filter((v) => hasBack || v !== 'back');
    // The views of the design in one colour: the first colour's files keep the names they had before
    // variants; another colour's are named after it and drawn from the same seed (the same design, recoloured).
    const photos = (colour) => {
      const q = colour === p.c[0] ? p : { ...p, c: [colour, ...p.c.slice(1)] };
      const tag = colour === p.c[0] ? '' : `-${slugify(colour)}`;
      return views.map((view) => {
        const file = `images/${slug}${tag}-${view}.svg`;
        const artRng = mulberry32(hashStr(`${slug}:${view}`));
        const svg = view === 'detail' ? renderDetail(q, artRng) : renderMain(q, artRng, view);
        if (svg.includes('NaN') || svg.includes('undefined')) throw new Error(`bad geometry in ${file}`);
        writeFileSync(join(OUT, file), svg);
        images++;
        return { file, altText: altText(q, view) };
      });
    };
    if (p.variants && p.variants[0].name !== p.c[0])
      throw new Error(`${p.title}: first variant must be c[0]`);
    const byColour = (p.variants ?? [{ name: p.c[0] }]).map((v) => ({ v, media: photos(v.name) }));
    const media = byColour.flatMap((c) => c.media);
    // Colour variants: a swatch, own photos, a SKU suffix and price when set, stock per size it has.
    const variantFields = p.variants
      ? {
          colors: byColour.map(({ v, media: own }) => ({
            name: v.name,
            hex: COLORS[v.name],
            ...(v.skuSuffix ? { skuSuffix: v.skuSuffix } : {}),
            ...(v.priceUp ? { price: (Number(pr) + v.priceUp).toFixed(2) } : {}),
            images: own.map((m) => m.file),
          })),
          colourStock: Object.fromEntries(
            // A colour without stock is made to order: not tracked.
            p.variants
              .filter((v) => v.stock)
              .map((v) => [
                v.name,
                Object.fromEntries(Object.entries(v.stock).filter(([size]) => sizes.includes(size))),
              ]),
          ),
        }
      : { colors: p.c };

    products.push({
      id,
      title: p.title,
      description: p.desc,
      manufacturer: mf.name,
      manufacturerUrl: `https://${mf.slug}.example.com`,
      sku: `${p.m}-${TYPE_CODES[p.t]}-${String(skuCount[p.m]).padStart(4, '0')}`,
      price: pr,
      currency: 'usd',
      sizes,
      sizeDetail: sizeDetail(p, sizes),
      ...variantFields,
      tags: p.tags,
      pageOrder,
      productLink: `https://${mf.slug}.example.com/products/${slug}`,
      createdAt,
      media,
    });
  });

  writeFileSync(join(IMG, 'banner.svg'), renderBanner(mulberry32(hashStr('banner'))));
  images++;

  const catalogue = {
    settings: {
      storeName: 'Sitara Stitched',
      tagline: 'Original stitched Pakistani fashion, sized and ready to wear.',
      aboutText: [
        'Sitara Stitched is the world’s largest store selling original stitched clothes. Every piece in our catalogue is authentic clothing sourced from Pakistan’s designers and manufacturers, cut, sewn and finished by the people who created it, so you can simply choose your size and wear it the day it arrives.',
        'Our collection spans traditional and modern styles: breezy lawn kurtas and printed three-piece suits for every day, chiffon and organza formals for Eid, hand-embellished lehengas and sherwanis for weddings, and warm khaddar, karandi and shawls for winter. We work only with premium materials such as fine lawn, raw silk, jamawar, velvet and pashmina blends.',
        'Can’t find your size or colour? Send us a special order and we will ask the original maker on your behalf.',
      ].join('\n\n'),
      disclaimer:
        'Sitara Stitched is a product reseller. Product images, descriptions and names belong to their original vendors and manufacturers and are shown to help you choose. We are not responsible for the accuracy of vendor-supplied information. If you notice a problem with a listing, please report it through the Contact Us form.',
      credits: [
        { role: 'Product owner', name: 'Hira Qureshi' },
        { role: 'Developer', name: 'Bilal Ahmed' },
      ],
      specialOrderUrl: 'https://forms.example.com/special-order',
      contactUrl: 'https://forms.example.com/contact',
      bannerTitle: 'The Festive Edit',
      bannerDescription:
        'Hand-embellished formals, lehengas and sherwanis from Pakistan’s finest ateliers — stitched, sized and ready to ship.',
      bannerImage: 'images/banner.svg',
      bannerActive: true,
    },
    quotes: QUOTES,
    version: {
      version: '1.0.0',
      environment: 'production',
      notes: `Initial release: ${products.length} stitched pieces from ${Object.keys(MANUFACTURERS).length} fashion houses, size guides for every garment, special orders and a contact form.`,
    },
    products,
  };
  writeFileSync(join(OUT, 'catalogue.json'), `${JSON.stringify(catalogue, null, 2)}\n`);
  console.log(`wrote ${products.length} products and ${images} images to ${OUT}`);
}

main();
