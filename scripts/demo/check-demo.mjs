#!/usr/bin/env node
// Validates data/demo/catalogue.json and its images. Exits non-zero on any problem.
//   node scripts/demo/check-demo.mjs
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'data', 'demo');
const SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL'];
const errors = [];
const fail = (m) => errors.push(m);

const cat = JSON.parse(readFileSync(join(OUT, 'catalogue.json'), 'utf8'));
const s = cat.settings;
for (const k of [
  'storeName',
  'tagline',
  'aboutText',
  'disclaimer',
  'specialOrderUrl',
  'contactUrl',
  'bannerTitle',
  'bannerDescription',
  'bannerImage',
]) {
  if (typeof s?.[k] !== 'string' || !s[k]) fail(`settings.${k} missing`);
}
if (s.bannerActive !== true) fail('settings.bannerActive must be true');
if (!Array.isArray(s.credits) || s.credits.length !== 2) fail('settings.credits must have 2 entries');
if (!existsSync(join(OUT, s.bannerImage))) fail(`banner image missing: ${s.bannerImage}`);
if (!Array.isArray(cat.quotes) || cat.quotes.length < 8 || cat.quotes.some((q) => !q.quote || !q.author))
  fail('need at least 8 quotes with quote+author');
if (cat.version?.version !== '1.0.0' || cat.version?.environment !== 'production' || !cat.version?.notes)
  fail('bad version block');

const products = cat.products || [];
if (products.length < 40) fail(`only ${products.length} products`);
const ids = new Set(),
  skus = new Set(),
  files = new Set();
const makers = new Set();
for (const p of products) {
  const where = p.id || p.title;
  if (!/^plink_[a-z0-9]{16}$/.test(p.id)) fail(`${where}: bad id`);
  if (ids.has(p.id)) fail(`${where}: duplicate id`);
  ids.add(p.id);
  if (skus.has(p.sku)) fail(`${where}: duplicate sku`);
  skus.add(p.sku);
  makers.add(p.manufacturer);
  for (const k of [
    'title',
    'description',
    'manufacturer',
    'manufacturerUrl',
    'sku',
    'productLink',
    'createdAt',
  ])
    if (typeof p[k] !== 'string' || !p[k]) fail(`${where}: ${k} missing`);
  if (!/^\d+\.\d{2}$/.test(p.price) || +p.price < 35 || +p.price > 480)
    fail(`${where}: bad price ${p.price}`);
  if (p.currency !== 'usd') fail(`${where}: currency`);
  if (!Array.isArray(p.sizes)) fail(`${where}: sizes not array`);
  else {
    const idx = p.sizes.map((z) => SIZES.indexOf(z));
    if (idx.some((i, n) => i < 0 || (n && i <= idx[n - 1]))) fail(`${where}: sizes out of order or unknown`);
    for (const z of p.sizes)
      if (!p.sizeDetail?.[z] || !Object.keys(p.sizeDetail[z]).length)
        fail(`${where}: no sizeDetail for ${z}`);
    if (Object.keys(p.sizeDetail || {}).some((z) => !p.sizes.includes(z)))
      fail(`${where}: sizeDetail has extra sizes`);
  }
  if (!Array.isArray(p.colors) || p.colors.length < 1 || p.colors.length > 3) fail(`${where}: colors`);
  // Colour variants: a swatch and photos of their own among the product's, stock only for its colours and sizes.
  const variants = (p.colors || []).filter((c) => typeof c !== 'string');
  const mediaFiles = new Set((p.media || []).map((m) => m.file));
  for (const c of variants) {
    if (!c.name || !/^#[0-9a-f]{6}$/.test(c.hex ?? ''))
      fail(`${where}: colour ${c.name} needs a name and a hex`);
    if (!Array.isArray(c.images) || c.images.length < 1 || c.images.some((f) => !mediaFiles.has(f)))
      fail(`${where}: colour ${c.name} photos must be among the product's media`);
    if (c.price !== undefined && !/^\d+\.\d{2}$/.test(c.price)) fail(`${where}: colour ${c.name} price`);
  }
  const names = new Set((p.colors || []).map((c) => (typeof c === 'string' ? c : c.name)));
  for (const [colour, counts] of Object.entries(p.colourStock || {})) {
    if (!names.has(colour)) fail(`${where}: stock for ${colour}, not a colour of it`);
    for (const [size, n] of Object.entries(counts))
      if (!p.sizes.includes(size) || !Number.isInteger(n) || n < 0) fail(`${where}: ${colour} ${size} stock`);
  }
  if (!Array.isArray(p.tags) || p.tags.length < 2 || p.tags.length > 4) fail(`${where}: tags`);
  if (!Number.isInteger(p.pageOrder)) fail(`${where}: pageOrder`);
  if (Number.isNaN(Date.parse(p.createdAt)) || !p.createdAt.endsWith('Z')) fail(`${where}: createdAt`);
  // One to three views of the design, in each colour that has photos of its own.
  const maxMedia = 3 * Math.max(1, variants.length);
  if (!Array.isArray(p.media) || p.media.length < 1 || p.media.length > maxMedia)
    fail(`${where}: media count`);
  for (const m of p.media || []) {
    if (!m.altText) fail(`${where}: media alt text missing`);
    if (!existsSync(join(OUT, m.file))) fail(`${where}: missing ${m.file}`);
    files.add(m.file);
  }
}
if (makers.size < 6) fail(`only ${makers.size} manufacturers`);
if (products.filter((p) => p.sizes.length === 0).length !== 2) fail('expected exactly 2 one-size products');

// images: self-contained SVG, no scripts / external refs / text
let total = 0;
for (const f of readdirSync(join(OUT, 'images'))) {
  const path = join(OUT, 'images', f);
  total += statSync(path).size;
  if (!f.endsWith('.svg')) {
    fail(`unexpected file images/${f}`);
    continue;
  }
  const svg = readFileSync(path, 'utf8');
  if (
    /<script|<foreignObject|<text|<image|@font-face|https?:\/\/(?!www\.w3\.org\/2000\/svg)|NaN|undefined/i.test(
      svg,
    )
  )
    fail(`images/${f}: forbidden content`);
  if (f !== 'banner.svg' && !svg.includes('viewBox="0 0 800 800"')) fail(`images/${f}: not 800x800`);
  if (f !== 'banner.svg' && !files.has(`images/${f}`)) fail(`images/${f}: not referenced by any product`);
}
if (total > 2.5 * 1024 * 1024) fail(`images folder too big: ${total} bytes`);

if (errors.length) {
  console.error(errors.join('\n'));
  console.error(`demo catalogue: ${errors.length} problem(s)`);
  process.exit(1);
}
console.log(
  `demo catalogue OK: ${products.length} products, ${makers.size} manufacturers, ${files.size + 1} images, ${(total / 1024).toFixed(0)} KiB`,
);
