import { ACCESSIBILITY_PAGE } from '@shared/site';
import { usePageTitle } from '../../lib/use-page-title';
import { useSiteSettings } from '../../lib/use-site-settings';

const linkClass = 'text-maroon underline underline-offset-2 hover:text-maroon-dark';

/** /accessibility: what the store aims for, how that is checked, what falls short and whom to tell. */
export function AccessibilityPage() {
  usePageTitle(ACCESSIBILITY_PAGE.title, { canonical: true, description: ACCESSIBILITY_PAGE.description });
  const { data } = useSiteSettings();
  const store = data?.storeName || 'This store';

  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
      <h1 className="font-serif text-4xl text-ink">{ACCESSIBILITY_PAGE.title}</h1>
      <p className="mt-6 leading-relaxed text-muted">
        {store} wants everyone to be able to browse the collection, choose a size and pay, however they use
        the web: with a keyboard, a screen reader, magnification or a phone.
      </p>

      <section className="mt-10" aria-labelledby="a11y-target">
        <h2 id="a11y-target" className="font-serif text-2xl">
          What the store aims for
        </h2>
        <p className="mt-3 leading-relaxed text-muted">
          The store aims to conform to the{' '}
          <a className={linkClass} href="https://www.w3.org/TR/WCAG22/">
            Web Content Accessibility Guidelines (WCAG) 2.2
          </a>{' '}
          at level AA. That covers the whole storefront (the catalogue with its search and filters, product
          pages, the cart, checkout and its result pages, About and this page) and the admin area the store's
          staff use.
        </p>
      </section>

      <section className="mt-10" aria-labelledby="a11y-testing">
        <h2 id="a11y-testing" className="font-serif text-2xl">
          How it is tested
        </h2>
        <ul className="mt-3 list-disc space-y-2 pl-5 leading-relaxed text-muted">
          <li>
            The store's end-to-end tests run axe-core in a real browser on every storefront page and every
            admin screen and dialog, against the WCAG 2.0, 2.1 and 2.2 rules of levels A and AA, and pass only
            when it finds no problem at all.
          </li>
          <li>
            Keyboard-only journeys, with no mouse: a shopper searches, filters, opens a product, chooses a
            size, adds it to the cart and pays; an operator signs in, adds a product, exports a catalogue
            version and publishes it. They check that the focused control is always visibly marked, that a
            dialog keeps focus inside it while open, and that closing it with Escape returns focus to what
            opened it.
          </li>
          <li>
            The pages a shopper arrives on (home, products, About and this statement) are sent ready to read,
            so their content does not wait for scripts.
          </li>
        </ul>
      </section>

      <section className="mt-10" aria-labelledby="a11y-limits">
        <h2 id="a11y-limits" className="font-serif text-2xl">
          Known limitations
        </h2>
        <ul className="mt-3 list-disc space-y-2 pl-5 leading-relaxed text-muted">
          <li>
            Automated checks find only part of the problems people meet, and the store has not yet been
            reviewed by people who use screen readers or other assistive technology.
          </li>
          <li>
            Product pictures and descriptions are written by the store. A picture without its own description
            is announced by the product's title, which may not say what the picture shows.
          </li>
          <li>
            Real payments are taken on Stripe Checkout, a page Stripe runs; its accessibility is Stripe's to
            answer for, not this statement's.
          </li>
          <li>
            The special order and contact forms may be hosted by other services, which this statement does not
            cover.
          </li>
          <li>The cart, checkout and admin area need JavaScript.</li>
        </ul>
      </section>

      <section className="mt-10" aria-labelledby="a11y-report">
        <h2 id="a11y-report" className="font-serif text-2xl">
          Report a problem
        </h2>
        <p className="mt-3 leading-relaxed text-muted">
          If something in the store is hard or impossible for you to use, please say which page, what you were
          trying to do, and the browser and any assistive technology you use. The store will try to fix it,
          and to help you get what you need in the meantime.
        </p>
        <p className="mt-3 leading-relaxed text-muted">
          {data?.contactUrl ? (
            <a className={linkClass} href={data.contactUrl} target="_blank" rel="noopener noreferrer">
              Contact the store<span className="sr-only"> (opens in a new tab)</span>
            </a>
          ) : data ? (
            'The store has not published a way to contact it yet.'
          ) : null}
        </p>
      </section>
    </article>
  );
}
