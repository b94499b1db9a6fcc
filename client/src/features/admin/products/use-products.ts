import type { ADMIN_PRODUCT_SORTS } from '@shared/product-input';
import { keepPreviousData } from '@tanstack/react-query';
import { toast } from '../../../lib/toast';
import { trpc } from '../../../lib/trpc';

export type ProductSort = (typeof ADMIN_PRODUCT_SORTS)[number];

/**
 * The products area's queries and mutations. A change to a product shows in the admin table and on the
 * storefront, so every write invalidates both here, once, instead of in each screen.
 */
function useAfterProductChange() {
  const utils = trpc.useUtils();
  return () => Promise.all([utils.admin.products.invalidate(), utils.catalogue.invalidate()]);
}

export function useProductList(filter: { q: string; sort: ProductSort; dir: 'asc' | 'desc' }) {
  const list = trpc.admin.products.list.useInfiniteQuery(
    { q: filter.q || undefined, sort: filter.sort, dir: filter.dir, limit: 50 },
    { getNextPageParam: (last) => last.nextCursor ?? undefined, placeholderData: keepPreviousData },
  );
  return {
    list,
    items: list.data?.pages.flatMap((p) => p.items),
    total: list.data?.pages[0]?.total ?? 0,
  };
}

export type ProductRow = NonNullable<ReturnType<typeof useProductList>['items']>[number];

/** Reloads the table from the database on request, and says whether it worked. */
export function useRefreshProducts() {
  const utils = trpc.useUtils();
  return async () => {
    try {
      await utils.admin.products.list.refetch();
      toast.success('Products refreshed from database');
    } catch {
      toast.error('Failed to refresh products');
    }
  };
}

export function useRemoveProduct() {
  const after = useAfterProductChange();
  return trpc.admin.products.remove.useMutation({
    onSuccess() {
      toast.success('Product deleted successfully');
      void after();
    },
    onError() {
      toast.error('Failed to delete product');
    },
  });
}

/** A fresh id for a new product, fixed for as long as its dialog is open. */
export function useNewProductId() {
  return trpc.admin.products.newId.useQuery(undefined, { staleTime: Number.POSITIVE_INFINITY, gcTime: 0 });
}

export function useProduct(id: string) {
  return trpc.admin.products.byId.useQuery({ id }, { gcTime: 0 });
}

export function useProductHistory(id: string) {
  return trpc.admin.products.history.useQuery({ id }, { gcTime: 0 });
}

/** The form shows why the server refused (mutateAsync rejects); here only the toast and the close. */
export function useCreateProduct(handlers: { onDone: () => void }) {
  const after = useAfterProductChange();
  return trpc.admin.products.create.useMutation({
    onSuccess() {
      toast.success('Product added successfully');
      void after();
      handlers.onDone();
    },
    onError() {
      toast.error('Failed to add product');
    },
  });
}

export function useUpdateProduct(handlers: { onDone: () => void }) {
  const after = useAfterProductChange();
  return trpc.admin.products.update.useMutation({
    onSuccess() {
      toast.success('Product updated successfully');
      void after();
      handlers.onDone();
    },
    onError() {
      toast.error('Failed to update product');
    },
  });
}
