import { LISTING_PARAM } from '@shared/ssr-contract';
import { Search } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useId, useRef } from 'react';
import { Link, useLocation } from 'wouter';
import { paths } from '../../lib/paths';
import { Button, buttonClass } from '../ui/button';

/**
 * What every "not found" in the store shows (an unknown address, a product that is gone): a heading that
 * takes the focus, what happened, a search of the catalogue and the way home. It never moves the shopper on
 * by itself (WCAG 2.2.1): where to go is theirs to choose.
 */
export function NotFoundView({
  heading,
  message,
  children,
}: {
  heading: string;
  message: string;
  /** Anything the page adds between the heading and the message. */
  children?: ReactNode;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);

  return (
    <div className="mx-auto flex max-w-2xl flex-col items-center px-4 py-20 text-center">
      <p className="font-serif text-8xl text-maroon sm:text-9xl" aria-hidden="true">
        404
      </p>
      <h1 ref={headingRef} tabIndex={-1} className="mt-4 font-serif text-3xl text-ink outline-none">
        {heading}
      </h1>
      {children}
      <p className="mt-8 text-muted">{message}</p>
      <CatalogueSearchForm />
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link href={paths.home()} className={buttonClass('primary')}>
          Go Home
        </Link>
        <Button variant="secondary" onClick={() => window.history.back()}>
          Go Back
        </Button>
      </div>
    </div>
  );
}

/**
 * A search of the catalogue that opens the home page's listing. A plain GET form underneath, so it works
 * on the server-rendered page before (or without) the app's script.
 */
function CatalogueSearchForm() {
  const [, navigate] = useLocation();
  const id = useId();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const q = String(new FormData(event.currentTarget).get(LISTING_PARAM.q) ?? '').trim();
    navigate(q ? `${paths.home()}?${new URLSearchParams({ [LISTING_PARAM.q]: q })}` : paths.home());
  };
  return (
    <search className="mt-8 w-full max-w-md">
      <form
        action={paths.home()}
        method="get"
        onSubmit={submit}
        className="flex flex-wrap items-center justify-center gap-2"
      >
        <label htmlFor={id} className="sr-only">
          Search products
        </label>
        <div className="relative min-w-0 flex-1 basis-48">
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-muted"
          />
          <input
            id={id}
            name={LISTING_PARAM.q}
            type="search"
            maxLength={200}
            autoComplete="off"
            placeholder="Search kurtas, lehengas, makers…"
            className="w-full rounded-full border border-stone-line bg-white py-2.5 pr-4 pl-9 text-sm"
          />
        </div>
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </form>
    </search>
  );
}
