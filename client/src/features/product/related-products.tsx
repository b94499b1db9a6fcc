import { ProductCard } from '../../components/catalogue/product-card';
import { trpc } from '../../lib/trpc';

export function RelatedProducts({ productId }: { productId: string }) {
  const related = trpc.catalogue.related.useQuery({ id: productId });
  if (!related.data || related.data.items.length === 0) return null;
  return (
    <section className="mt-16 border-t border-stone-line pt-10" aria-labelledby="related-heading">
      <h2 id="related-heading" className="font-serif text-2xl">
        {related.data.heading}
      </h2>
      <div className="mt-6 grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3">
        {related.data.items.map((p) => (
          <ProductCard key={p.id} product={p} />
        ))}
      </div>
    </section>
  );
}
