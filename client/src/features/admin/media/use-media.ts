import { MEDIA_MESSAGES } from '@shared/media-rules';
import { useState } from 'react';
import { paths } from '../../../lib/paths';
import { toast } from '../../../lib/toast';
import { trpc } from '../../../lib/trpc';
import { uploadWithProgress } from '../../../lib/upload';

/**
 * The media area's queries and mutations. The storefront shows a product's first image and the products
 * table counts media, so every change refreshes both along with the product's own list.
 */
function useAfterMediaChange(productId: string) {
  const utils = trpc.useUtils();
  return () =>
    Promise.all([
      utils.admin.media.list.invalidate({ productId }),
      utils.catalogue.invalidate(),
      utils.admin.products.list.invalidate(),
    ]);
}

export function useMediaList(productId: string) {
  const list = trpc.admin.media.list.useQuery({ productId });
  return { list, items: list.data?.items ?? [] };
}

export type MediaItem = NonNullable<ReturnType<typeof useMediaList>['list']['data']>['items'][number];

/** Moves one item up or down, showing the new order at once; a failure reloads the saved one. */
export function useMoveMedia(productId: string, items: MediaItem[]) {
  const utils = trpc.useUtils();
  const reorder = trpc.admin.media.reorder.useMutation({
    onSuccess(result) {
      utils.admin.media.list.setData({ productId }, (old) => (old ? { ...old, items: result.items } : old));
      void utils.catalogue.invalidate();
    },
    onError() {
      toast.error('Failed to reorder media');
      void utils.admin.media.list.invalidate({ productId });
    },
  });
  const move = (index: number, delta: -1 | 1) => {
    const target = index + delta;
    if (target < 0 || target >= items.length) return;
    const ids = items.map((m) => m.id);
    const [moved] = ids.splice(index, 1);
    if (moved === undefined) return;
    ids.splice(target, 0, moved);
    utils.admin.media.list.setData({ productId }, (old) =>
      old
        ? {
            ...old,
            items: ids.flatMap((id, i) => {
              const m = old.items.find((x) => x.id === id);
              return m ? [{ ...m, displayOrder: i }] : [];
            }),
          }
        : old,
    );
    reorder.mutate({ productId, ids });
  };
  return { move, moving: reorder.isPending };
}

export function useRemoveMedia(productId: string) {
  const after = useAfterMediaChange(productId);
  return trpc.admin.media.remove.useMutation({
    onSuccess() {
      toast.success('Media deleted successfully');
      void after();
    },
    onError() {
      toast.error('Failed to delete media');
    },
  });
}

/** The forms show the server's field errors (mutateAsync rejects); here only the toast and the refresh. */
export function useAddMediaUrl(productId: string) {
  const after = useAfterMediaChange(productId);
  return trpc.admin.media.addUrl.useMutation({
    onSuccess() {
      toast.success('Media added successfully');
      void after();
    },
    onError(error) {
      toast.error(error.data?.code === 'CONFLICT' ? error.message : 'Failed to add media');
    },
  });
}

export function useUpdateMedia(productId: string) {
  const after = useAfterMediaChange(productId);
  return trpc.admin.media.update.useMutation({
    onSuccess() {
      toast.success('Media updated successfully');
      void after();
    },
    onError() {
      toast.error('Failed to update media');
    },
  });
}

/** Uploads files as media of the product, with progress; null progress means idle. */
export function useUploadMedia(productId: string, remaining: number) {
  const after = useAfterMediaChange(productId);
  const [progress, setProgress] = useState<number | null>(null);
  const upload = async (files: File[]): Promise<boolean> => {
    if (files.length === 0 || progress !== null) return false;
    if (files.length > remaining) {
      toast.error(MEDIA_MESSAGES.limitReached);
      return false;
    }
    setProgress(0);
    const result = await uploadWithProgress(
      paths.adminProductMediaUpload(productId),
      files.map((file) => ({ field: 'files', file })),
      { onProgress: setProgress, fallbackMessage: 'Failed to add media' },
    );
    setProgress(null);
    if (!result.ok) {
      toast.error(result.message);
      return false;
    }
    toast.success('Media added successfully');
    await after();
    return true;
  };
  return { upload, progress };
}
