import { Link } from 'wouter';
import { paths } from '../../lib/paths';
import { useHydrated } from '../../lib/use-hydrated';
import { useSiteSettings } from '../../lib/use-site-settings';

const lastUpdatedFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
// What the server can say without the shopper's language and time zone (see useHydrated).
const serverFormat = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

export function SiteFooter() {
  const { data } = useSiteSettings();
  const version = data?.version;
  const updated = version ? new Date(version.updatedAt) : null;
  const hydrated = useHydrated();

  return (
    <footer className="mt-16 border-t border-stone-line bg-sand/60">
      <div className="mx-auto max-w-7xl px-4 py-10 text-sm text-muted sm:px-6 lg:px-8">
        <div className="grid gap-8 md:grid-cols-[2fr_1fr]">
          <div>
            <p className="font-serif text-lg text-ink">{data?.storeName}</p>
            {data?.disclaimer ? <p className="mt-3 max-w-2xl leading-relaxed">{data.disclaimer}</p> : null}
          </div>
          <ul className="space-y-2 md:justify-self-end">
            <li>
              <Link href={paths.about()} className="hover:text-ink hover:underline">
                About
              </Link>
            </li>
            <li>
              <Link href={paths.accessibility()} className="hover:text-ink hover:underline">
                Accessibility
              </Link>
            </li>
            {data?.contactUrl ? (
              <li>
                <a
                  href={data.contactUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="hover:text-ink hover:underline"
                >
                  Contact Us<span className="sr-only"> (opens in a new tab)</span>
                </a>
              </li>
            ) : null}
          </ul>
        </div>
        <p className="mt-8 border-t border-stone-line pt-4 text-xs">
          Version {version?.version ?? '1.0.0'}
          {updated && !Number.isNaN(updated.getTime()) ? (
            <>
              {' · '}Last updated{' '}
              <time dateTime={version?.updatedAt}>
                {hydrated ? lastUpdatedFormat.format(updated) : `${serverFormat.format(updated)} UTC`}
              </time>
            </>
          ) : null}
        </p>
      </div>
    </footer>
  );
}
