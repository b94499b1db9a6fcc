import { useSiteSettings } from '../site/use-site-settings';

export function StoreBanner() {
  const { data, isPending, isError, error } = useSiteSettings();
  if (isPending) return <div className="skeleton mb-10 h-[272px] rounded-2xl" aria-hidden="true" />;
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
      className="relative mb-10 flex h-[272px] items-end overflow-hidden rounded-2xl bg-maroon-dark"
    >
      {banner.imageUrl ? (
        <img
          src={banner.imageUrl}
          alt=""
          className="absolute inset-0 h-full w-full object-cover opacity-40"
          fetchPriority="high"
          width={1600}
          height={544}
        />
      ) : null}
      <div className="relative p-6 text-ivory sm:p-10">
        <p className="font-serif text-3xl sm:text-4xl">{banner.title}</p>
        {banner.description ? <p className="mt-2 max-w-xl text-ivory/90">{banner.description}</p> : null}
      </div>
    </section>
  );
}
