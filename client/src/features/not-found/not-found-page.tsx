import { NotFoundView } from '../../components/site/not-found-view';
import { trpc } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';

export function NotFoundPage() {
  usePageTitle('Page not found', { noindex: true });
  const quote = trpc.site.randomQuote.useQuery(undefined, { staleTime: 0 });

  return (
    <NotFoundView
      heading="Oops! Page Not Found"
      message="The page you're looking for might have been moved, deleted, or never existed."
    >
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
    </NotFoundView>
  );
}
