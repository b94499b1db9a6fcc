import { COLOUR_PAGE_PARAM } from '@shared/ssr-contract';
import { useEffect } from 'react';
import { useLocation, useParams, useSearch } from 'wouter';
import { paths } from '../../lib/paths';
import { trpc } from '../../lib/trpc';

/** /products/:slug finds the product by slugified title or id and replaces itself with /product/:id. */
export function ProductSlugPage() {
  const { slug = '' } = useParams<{ slug: string }>();
  const [, navigate] = useLocation();
  // A shared link's colour goes along, as the server's redirect keeps it.
  const colour = new URLSearchParams(useSearch()).get(COLOUR_PAGE_PARAM);
  const found = trpc.catalogue.bySlug.useQuery({ slug });
  useEffect(() => {
    if (!found.data) return;
    const keep = colour ? `?${new URLSearchParams({ [COLOUR_PAGE_PARAM]: colour })}` : '';
    navigate(found.data.id ? `${paths.product(found.data.id)}${keep}` : paths.notFound(), { replace: true });
  }, [found.data, navigate, colour]);
  if (found.isError) {
    return (
      <p role="alert" className="mx-auto max-w-7xl px-4 py-20 text-center text-red-800">
        Error loading product catalog: {found.error.message}
      </p>
    );
  }
  return <div className="skeleton mx-auto my-12 h-96 max-w-7xl rounded-2xl" aria-hidden="true" />;
}
