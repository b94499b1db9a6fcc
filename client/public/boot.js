// Starts the app once the page the server rendered is on screen with its main picture, so the page's images,
// not the script, get the connection and the main thread first (src/http/storefront-page.ts inlines this in
// place of the entry script). The main pictures are the ones marked fetchpriority="high": a product's first
// picture, the home page's banner and first card.
const boot = document.querySelector('script[data-entry]');
const entry = boot?.getAttribute('data-entry');
/** However long a picture takes, the app is not held back longer than this. */
const MAX_WAIT_MS = 2500;
/** After the pictures have arrived, how long to wait for the browser to say one of them is on screen. */
const SHOWN_WAIT_MS = 250;

let started = false;
const start = () => {
  if (started) return;
  started = true;
  for (const href of (boot?.getAttribute('data-preload') ?? '').split(' ').filter(Boolean)) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }
  if (entry) import(entry);
};

const pictures = [...document.querySelectorAll('img[fetchpriority="high"]')];
let loading = pictures.filter((img) => !img.complete).length;
let shown = false;
const startIfShown = () => {
  if (loading === 0 && shown) setTimeout(start, 0);
};
// The browser reports the largest picture or text on screen once the frame showing it has been presented:
// when that is one of the main pictures, the page is there. Where it says nothing of them (a larger text, a
// picture out of view), SHOWN_WAIT_MS after they arrived; where it cannot say (no largest-contentful-paint
// entries) or the page has no main picture, two frames after (a frame callback runs just before a frame is
// painted, so the second comes once the first has been).
const reports = globalThis.PerformanceObserver?.supportedEntryTypes?.includes('largest-contentful-paint');
if (reports) {
  new PerformanceObserver((list) => {
    if (list.getEntries().some((e) => pictures.includes(e.element))) shown = true;
    startIfShown();
  }).observe({ type: 'largest-contentful-paint', buffered: true });
}
const afterTwoFrames = () => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(start, 0)));
const arrived = () => {
  startIfShown();
  if (reports && pictures.length > 0) setTimeout(start, SHOWN_WAIT_MS);
  else afterTwoFrames();
};
for (const img of pictures.filter((img) => !img.complete)) {
  const done = () => {
    loading -= 1;
    if (loading === 0) arrived();
  };
  img.addEventListener('load', done, { once: true });
  img.addEventListener('error', done, { once: true });
}
if (loading === 0) arrived();
setTimeout(start, MAX_WAIT_MS);
