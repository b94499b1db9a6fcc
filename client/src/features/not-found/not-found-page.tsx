import { useEffect, useRef } from 'react';
import { Link } from 'wouter';
import { Button, buttonClass } from '../../components/ui/button';
import { paths } from '../../lib/paths';
import { trpc } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';

export function NotFoundPage() {
  usePageTitle('Page not found');
  const quote = trpc.site.randomQuote.useQuery(undefined, { staleTime: 0 });
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  return (
    <div className="mx-auto flex max-w-2xl flex-col items-center px-4 py-20 text-center">
      <p className="font-serif text-8xl text-maroon sm:text-9xl" aria-hidden="true">
        404
      </p>
      <h1 ref={heading} tabIndex={-1} className="mt-4 font-serif text-3xl text-ink outline-none">
        Oops! Page Not Found
      </h1>
      <figure className="mt-8 min-h-20 rounded-2xl bg-sand/70 px-6 py-5" aria-live="polite">
        {quote.isPending ? (
          // Never wider than a 320 px screen less the page's and the figure's padding (5rem).
          <div className="skeleton mx-auto h-5 w-72 max-w-[calc(100vw-5rem)] rounded" aria-hidden="true" />
        ) : quote.data ? (
          <>
            <blockquote className="font-serif text-lg text-ink italic">“{quote.data.quote}”</blockquote>
            {quote.data.author ? (
              <figcaption className="mt-2 text-sm text-muted">— {quote.data.author}</figcaption>
            ) : null}
          </>
        ) : (
          <p className="text-muted">No funny quotes available at the moment</p>
        )}
      </figure>
      <p className="mt-8 text-muted">
        The page you're looking for might have been moved, deleted, or never existed.
      </p>
      <div className="mt-8 flex gap-3">
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
