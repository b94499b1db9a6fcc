/**
 * Lighthouse (mobile emulation, simulated throttling: its defaults) on storefront pages, driving the system
 * Chromium, plus the JavaScript and CSS each page transferred, split into storefront and admin chunks.
 *
 *   tsx scripts/bench/lighthouse.ts --url http://127.0.0.1:3000 --product <id> [--runs 1]
 *
 * With a product, every storefront page is measured, the shopper's own included: a paid demo order is made
 * on the store (demo payment mode) for /checkout (its cart in the browser's storage), /testpayment,
 * /checkout/success and the order page. CLS is each page's (pages the server does
 * not render shifted by up to 0.66 before they reserved their space).
 */
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { placeDemoOrder } from './demo-order.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export type LighthouseRow = {
  page: string;
  url: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  fcpMs: number;
  /** Bytes over the wire (as served to this browser: gzip over plain http, brotli over https). */
  transfer: { storefrontJs: number; adminJs: number; css: number; documents: number; images: number };
  failing: string[];
  /** How many runs the row is the median of, and the spread of LCP across them. */
  runs: number;
  lcpRangeMs: [number, number];
};

/** A page to measure; `storage` is put in its origin's localStorage first and kept for the run (a cart). */
export type LighthousePage = { page: string; url: string; storage?: Record<string, string> };

/** One Lighthouse run of one page, before the runs are folded into a row. */
type Run = Omit<LighthouseRow, 'runs' | 'lcpRangeMs'>;

type NetworkItem = { url: string; resourceType?: string; transferSize?: number };

const score = (v: number | null | undefined) => Math.round((v ?? 0) * 100);

/**
 * Each page `runs` times, the pages taking turns (so a cold browser does not always land on the first page),
 * and the run with the median LCP reported with the spread: Lighthouse's own advice for its variability
 * (one run on a shared machine can be off by half a second).
 */
export async function runLighthouse(pages: LighthousePage[], runs = 5): Promise<LighthouseRow[]> {
  const all = new Map<string, Run[]>(pages.map((p) => [p.page, []]));
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: FLAGS });
  try {
    for (let round = 0; round < runs; round++) {
      for (const p of pages) all.get(p.page)?.push(await measureOnce(chrome.port, p));
    }
  } finally {
    chrome.kill();
  }
  return pages.map(({ page }) => {
    const rows = (all.get(page) ?? []).sort((a, b) => a.lcpMs - b.lcpMs);
    const median = rows[Math.floor((rows.length - 1) / 2)];
    if (!median) throw new Error(`Lighthouse gave no result for ${page}`);
    return {
      ...median,
      runs: rows.length,
      lcpRangeMs: [rows[0]?.lcpMs ?? 0, rows[rows.length - 1]?.lcpMs ?? 0],
    };
  });
}

/**
 * A run that could not measure LCP (Lighthouse reports an error such as NO_LCP instead of a number, seen
 * once in a fifteen-run bench here) is run again rather than counted as 0 ms, which would pull the median.
 */
async function measureOnce(port: number, { page, url, storage }: LighthousePage): Promise<Run> {
  let lastError = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    // Lighthouse clears the origin's storage before each run unless told not to: put it back each time.
    if (storage) await fillStorage(port, url, storage);
    const run = await measure(port, page, url, storage !== undefined);
    if (typeof run === 'object') return run;
    lastError = run;
    console.log(`  ${page}: Lighthouse could not measure LCP (${run}); running it again`);
  }
  throw new Error(`Lighthouse could not measure ${url}: ${lastError}`);
}

/**
 * Writes `storage` into the localStorage of `url`'s origin in the browser Lighthouse drives (over its
 * DevTools port, from a page of that origin), then lets go of the browser without closing it.
 */
async function fillStorage(port: number, url: string, storage: Record<string, string>): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0] ?? (await browser.newContext());
    const tab = await context.newPage();
    await tab.goto(new URL('/robots.txt', url).href);
    await tab.evaluate((entries) => {
      for (const [key, value] of entries) localStorage.setItem(key, value);
    }, Object.entries(storage));
    await tab.close();
  } finally {
    await browser.close();
  }
}

async function measure(port: number, page: string, url: string, keepStorage: boolean): Promise<Run | string> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    ...(keepStorage ? { disableStorageReset: true } : {}),
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  const audit = (id: string) => lhr.audits[id];
  const lcp = audit('largest-contentful-paint');
  if (lhr.runtimeError || typeof lcp?.numericValue !== 'number' || lcp.numericValue <= 0) {
    return lhr.runtimeError?.code ?? lcp?.errorMessage ?? 'no LCP value';
  }
  const items = ((audit('network-requests')?.details as { items?: NetworkItem[] } | undefined)?.items ??
    []) as NetworkItem[];
  const sum = (pick: (i: NetworkItem) => boolean) =>
    items.filter(pick).reduce((n, i) => n + (i.transferSize ?? 0), 0);
  const isAdmin = (i: NetworkItem) => /\/assets\/admin[-.]/.test(i.url);
  return {
    page,
    url,
    performance: score(lhr.categories.performance?.score),
    accessibility: score(lhr.categories.accessibility?.score),
    bestPractices: score(lhr.categories['best-practices']?.score),
    seo: score(lhr.categories.seo?.score),
    lcpMs: Math.round(lcp.numericValue),
    cls: Number((audit('cumulative-layout-shift')?.numericValue ?? 0).toFixed(3)),
    tbtMs: Math.round(audit('total-blocking-time')?.numericValue ?? 0),
    fcpMs: Math.round(audit('first-contentful-paint')?.numericValue ?? 0),
    transfer: {
      storefrontJs: sum((i) => i.resourceType === 'Script' && !isAdmin(i)),
      adminJs: sum((i) => i.resourceType === 'Script' && isAdmin(i)),
      css: sum((i) => i.resourceType === 'Stylesheet'),
      documents: sum((i) => i.resourceType === 'Document'),
      images: sum((i) => i.resourceType === 'Image'),
    },
    // Audits that lost points, so a score below 100 says why.
    failing: Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative')
      .filter((a) => a.scoreDisplayMode !== 'notApplicable' && a.scoreDisplayMode !== 'manual')
      .map((a) => a.id),
  };
}

export function printLighthouse(rows: LighthouseRow[]): void {
  console.log(
    `\nMedian of ${rows[0]?.runs ?? 1} run(s) per page by LCP; the LCP range shows the spread across runs.`,
  );
  console.log(
    'page            perf  a11y  best   seo    LCP ms  LCP range    CLS   TBT ms   JS kB (admin)  CSS kB',
  );
  for (const r of rows) {
    console.log(
      `${r.page.padEnd(15)} ${String(r.performance).padStart(4)} ${String(r.accessibility).padStart(5)} ${String(r.bestPractices).padStart(5)} ${String(r.seo).padStart(5)} ${String(r.lcpMs).padStart(9)} ${`${r.lcpRangeMs[0]}-${r.lcpRangeMs[1]}`.padStart(10)} ${r.cls.toFixed(3).padStart(6)} ${String(r.tbtMs).padStart(8)} ${(r.transfer.storefrontJs / 1024).toFixed(1).padStart(8)} (${(r.transfer.adminJs / 1024).toFixed(1)}) ${(r.transfer.css / 1024).toFixed(1).padStart(7)}`,
    );
    if (r.failing.length) console.log(`${''.padEnd(16)}below 90: ${r.failing.join(', ')}`);
  }
}

/**
 * Every storefront page: the landing pages, and with a product also the product page and the pages after
 * it, on a paid demo order made for the purpose (the store must be in demo payment mode).
 */
export async function storefrontPages(base: string, productId: string | null): Promise<LighthousePage[]> {
  const pages: LighthousePage[] = [
    { page: 'home', url: `${base}/` },
    { page: 'filtered', url: `${base}/?size=M&tag=women` },
  ];
  if (!productId) return pages;
  const order = await placeDemoOrder(base, productId);
  const session = `session_id=${encodeURIComponent(order.sessionId)}`;
  return [
    ...pages,
    { page: 'product', url: `${base}/product/${encodeURIComponent(productId)}` },
    { page: 'checkout', url: `${base}/checkout`, storage: { 'cart:v1': JSON.stringify(order.cart) } },
    { page: 'test payment', url: `${base}/testpayment?${session}` },
    { page: 'paid', url: `${base}/checkout/success?${session}` },
    { page: 'cancelled', url: `${base}/checkout/cancel` },
    { page: 'order page', url: `${base}${order.orderPagePath}` },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { url: { type: 'string' }, product: { type: 'string' }, runs: { type: 'string' } },
  });
  const base = values.url ?? 'http://127.0.0.1:3000';
  const pages = await storefrontPages(base, values.product ?? null);
  printLighthouse(await runLighthouse(pages, Math.max(1, Number(values.runs) || 5)));
}
