import type { ReturnStatusName } from '@shared/returns';
import { toast } from '../../../lib/toast';
import { type RouterOutputs, trpc } from '../../../lib/trpc';

/** admin.returns.get as the server answers it. */
export type ReturnDetail = RouterOutputs['admin']['returns']['get'];
export type ReturnRow = RouterOutputs['admin']['returns']['list']['items'][number];

export function useReturnList(status: ReturnStatusName | '') {
  const list = trpc.admin.returns.list.useInfiniteQuery(
    { status: status || undefined, limit: 25 },
    { getNextPageParam: (last) => last.nextCursor ?? undefined },
  );
  return { list, items: list.data?.pages.flatMap((p) => p.items) };
}

export function useReturn(id: string) {
  return trpc.admin.returns.get.useQuery({ id });
}

/**
 * What every step refreshes: the list, the return, the order it belongs to (its timeline and refunds) and
 * the stock a restock or a hold moved. A refusal refreshes too: someone else may have moved it first.
 */
function useAfterReturnChange() {
  const utils = trpc.useUtils();
  return () =>
    Promise.all([
      utils.admin.returns.invalidate(),
      utils.admin.orders.byId.invalidate(),
      utils.admin.orders.list.invalidate(),
    ]);
}

function useStep(message: string) {
  const after = useAfterReturnChange();
  return {
    onSuccess() {
      toast.success(message);
      void after();
    },
    onError() {
      void after();
    },
  };
}

export function useApproveReturn() {
  return trpc.admin.returns.approve.useMutation(useStep('Return approved'));
}

export function useDeclineReturn() {
  return trpc.admin.returns.decline.useMutation(useStep('Return declined'));
}

export function useReceiveReturn() {
  return trpc.admin.returns.receive.useMutation(useStep('Return received'));
}

export function useCloseExchange() {
  return trpc.admin.returns.closeExchange.useMutation(useStep('Exchange shipped; return closed'));
}

export function useCloseRefund() {
  return trpc.admin.returns.closeRefund.useMutation(useStep('Refunded; return closed'));
}

export function useRecordDifferencePaid() {
  return trpc.admin.returns.recordDifferencePaid.useMutation(useStep('Price difference recorded as paid'));
}

export function useRefundDifference() {
  return trpc.admin.returns.refundDifference.useMutation(useStep('Price difference refunded'));
}

/** What the exchange's parcel needs (admin.returns.packingSlip), for its printable slip. */
export function useReturnPackingSlip(id: string) {
  return trpc.admin.returns.packingSlip.useQuery({ id }, { retry: false });
}

export function useReturnReasons(productId: string) {
  return trpc.admin.returns.reasonsByProduct.useQuery({ productId });
}
