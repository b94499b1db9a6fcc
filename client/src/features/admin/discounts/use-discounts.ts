import { toast } from '../../../lib/toast';
import { trpc } from '../../../lib/trpc';

/** The Discounts tab's queries and mutations (decision 0037). A change refreshes the list and the storefront. */
export function useDiscounts() {
  return trpc.admin.discounts.list.useQuery(undefined, { gcTime: 0 });
}

export type DiscountsList = NonNullable<ReturnType<typeof useDiscounts>['data']>;
export type ListedDiscount = DiscountsList['items'][number];

function useAfterChange() {
  const utils = trpc.useUtils();
  return () => Promise.all([utils.admin.discounts.invalidate(), utils.catalogue.invalidate()]);
}

export function useCreateDiscount() {
  const after = useAfterChange();
  return trpc.admin.discounts.create.useMutation({
    onSuccess() {
      toast.success('Discount created');
      void after();
    },
  });
}

export function useUpdateDiscount() {
  const after = useAfterChange();
  return trpc.admin.discounts.update.useMutation({
    onSuccess() {
      toast.success('Discount saved');
      void after();
    },
  });
}

export function useEndDiscount() {
  const after = useAfterChange();
  return trpc.admin.discounts.end.useMutation({
    onSuccess(result) {
      toast.success(result.ended ? 'Discount ended' : 'It had ended already');
      void after();
    },
    // Ending needs a fresh confirmation, as publishing does (the tRPC link asks for it): a cancelled
    // confirmation says so with the server's message.
    onError(err) {
      toast.error(err.message || 'Failed to end the discount');
    },
  });
}
