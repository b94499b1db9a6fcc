import { useSiteSettings } from '../../lib/use-site-settings';

const updatedDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'long' });
const updatedTime = new Intl.DateTimeFormat(undefined, {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** The About content, shown at /about and /admin/about. */
export function AboutContent() {
  const { data, isPending } = useSiteSettings();
  const version = data?.version;
  const updated = version ? new Date(version.updatedAt) : null;

  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
      <h1 className="font-serif text-4xl text-ink">{data?.storeName ?? 'About'}</h1>
      {data?.tagline ? <p className="mt-3 text-lg text-gold">{data.tagline}</p> : null}
      <div className="mt-6 space-y-4 leading-relaxed text-muted">
        {(data?.aboutText ?? '')
          .split(/\n{2,}/)
          .filter(Boolean)
          .map((para) => (
            <p key={para.slice(0, 40)}>{para}</p>
          ))}
      </div>

      <section
        className="mt-10 rounded-2xl border border-stone-line bg-white/60 p-6"
        aria-labelledby="version-heading"
      >
        <h2 id="version-heading" className="font-serif text-2xl">
          Version Information
        </h2>
        {isPending ? (
          <div className="mt-4 space-y-2" aria-hidden="true" data-testid="version-skeleton">
            <div className="skeleton h-4 w-1/2 rounded" />
            <div className="skeleton h-4 w-2/3 rounded" />
            <div className="skeleton h-4 w-1/3 rounded" />
          </div>
        ) : version && updated ? (
          <div className="mt-4 space-y-2 text-sm">
            <p>
              Version <span className="font-semibold">{version.version}</span>{' '}
              <span className="ml-1 rounded-full bg-sand px-2 py-0.5 text-xs tracking-wide uppercase">
                {version.environment}
              </span>
            </p>
            <p className="text-muted">
              Updated{' '}
              <time
                dateTime={version.updatedAt}
              >{`${updatedDate.format(updated)} ${updatedTime.format(updated)}`}</time>
            </p>
            {version.notes ? (
              <div>
                <h3 className="mt-3 font-medium">Release Notes</h3>
                <p className="mt-1 whitespace-pre-line text-muted">{version.notes}</p>
              </div>
            ) : null}
          </div>
        ) : (
          <p className="mt-4 text-muted">Version information not available.</p>
        )}
      </section>

      {data && data.credits.length > 0 ? (
        <section className="mt-10" aria-labelledby="credits-heading">
          <h2 id="credits-heading" className="font-serif text-2xl">
            Credits
          </h2>
          <ul className="mt-3 space-y-1 text-muted">
            {data.credits.map((c) => (
              <li key={`${c.role}-${c.name}`}>
                <span className="text-ink">{c.role}:</span> {c.name}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </article>
  );
}
