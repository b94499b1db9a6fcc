import { useSiteSettings } from '../../lib/use-site-settings';

export function StoreBanner() {
  const { data, isPending, isError, error } = useSiteSettings();
  if (isPending)
    return <div className="skeleton mb-4 h-28 rounded-2xl sm:mb-10 sm:h-[272px]" aria-hidden="true" />;
  if (isError) {
    return (
      <p role="status" className="mb-10 rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-900">
        {error.message || 'Failed to load banner configuration'}
      </p>
    );
  }
  const banner = data.banner;
  if (!banner) {
    return (
      <p
        role="status"
        className="mb-10 rounded-xl border border-stone-line bg-sand/50 p-4 text-sm text-muted"
      >
        Banner configuration is not set up yet.
      </p>
    );
  }
  if (!banner.active) return null;
  return (
    <section
      aria-label="Featured"
      // A strip on phones (the products must show in the first screen), the full banner from sm.
      className="relative mb-4 flex h-28 items-end overflow-hidden rounded-2xl bg-maroon-dark sm:mb-10 sm:h-[272px]"
    >
      {banner.imageUrl ? (
        <img
          src={banner.imageUrl}
          alt=""
          className="absolute inset-0 h-full w-full object-cover"
          fetchPriority="high"
          width={1600}
          height={544}
        />
      ) : null}
      {/* The text reads over a scrim, not over the owner's picture: .banner-scrim (styles.css) keeps it at
          4.5:1 or more whatever the picture, a white one included. */}
      <div className="banner-scrim absolute inset-0" aria-hidden="true" data-testid="banner-scrim" />
      <div className="relative p-4 text-ivory sm:p-10">
        <p className="font-serif text-xl sm:text-4xl">{banner.title}</p>
        {banner.description ? (
          <p className="mt-1 line-clamp-2 max-w-xl text-sm sm:mt-2 sm:line-clamp-none sm:text-base">
            {banner.description}
          </p>
        ) : null}
      </div>
    </section>
  );
}
