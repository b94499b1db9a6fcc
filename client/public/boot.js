// Starts the app once the browser has painted the page the server rendered, so the page's images, not the
// script, get the connection first (src/http/storefront-page.ts puts this in place of the entry script).
const boot = document.querySelector('script[data-entry]');
const entry = boot?.getAttribute('data-entry');
const start = () => {
  for (const href of (boot?.getAttribute('data-preload') ?? '').split(' ').filter(Boolean)) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }
  if (entry) import(entry);
};
requestAnimationFrame(() => setTimeout(start, 0));
