import { slotsUsedText } from '@shared/media-rules';
import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../lib/toast';
import { EditMediaDialog } from './edit-media-dialog';
import { MEDIA_TYPE_LABEL, MediaPreview } from './media-preview';
import { MediaUploadArea } from './media-upload-area';
import { MediaUrlForm } from './media-url-form';
import { type MediaItem, useMediaList, useMoveMedia, useRemoveMedia } from './use-media';

/** A product's media: the ordered list with its actions, uploads, and media added by URL. */
export function MediaManager({ productId }: { productId: string }) {
  const { list, items } = useMediaList(productId);
  const [editing, setEditing] = useState<MediaItem | null>(null);

  useEffect(() => {
    if (list.isError) toast.error('Failed to load product media');
  }, [list.isError]);

  return (
    <div>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-serif text-xl">Media</h3>
        <p className="text-sm text-muted" aria-live="polite">
          {slotsUsedText(items.length)}
        </p>
      </div>

      {list.isPending ? (
        <div className="mt-4 space-y-2" aria-hidden="true">
          {[0, 1].map((i) => (
            <div key={i} className="skeleton h-20 rounded" />
          ))}
        </div>
      ) : list.isError ? (
        <div className="mt-4 flex items-center gap-3 text-sm" role="alert">
          <span>Failed to load product media</span>
          <Button variant="secondary" onClick={() => void list.refetch()}>
            Retry
          </Button>
        </div>
      ) : items.length === 0 ? (
        <p className="mt-4 text-sm text-muted">No media yet. Upload files or add one by URL below.</p>
      ) : (
        <MediaList productId={productId} items={items} onEdit={setEditing} />
      )}

      <MediaUploadArea productId={productId} used={items.length} disabled={!list.data} />
      <MediaUrlForm productId={productId} used={items.length} disabled={!list.data} />

      {editing ? (
        <EditMediaDialog productId={productId} item={editing} onClose={() => setEditing(null)} />
      ) : null}
    </div>
  );
}

function MediaList(props: { productId: string; items: MediaItem[]; onEdit: (item: MediaItem) => void }) {
  const { items } = props;
  const { move, moving } = useMoveMedia(props.productId, items);
  const remove = useRemoveMedia(props.productId);
  const confirmRemove = (item: MediaItem) => {
    if (window.confirm(`Are you sure you want to delete this ${item.mediaType}?`))
      remove.mutate({ id: item.id });
  };
  return (
    <ol
      className="mt-4 divide-y divide-stone-line rounded-xl border border-stone-line"
      aria-label="Product media"
    >
      {items.map((item, index) => (
        <li key={item.id} className="flex items-center gap-3 p-3" data-testid="media-item">
          <MediaPreview item={item} size="small" />
          <div className="min-w-0 flex-1 text-sm">
            <p className="truncate font-medium" title={item.fileName}>
              {item.fileName}
            </p>
            <p className="truncate text-xs text-muted">
              {MEDIA_TYPE_LABEL[item.mediaType]}
              {item.width && item.height ? ` · ${item.width}×${item.height}` : ''}
              {item.altText ? ` · ${item.altText}` : ' · no alt text'}
            </p>
          </div>
          <div className="flex flex-wrap justify-end gap-1">
            <Button
              variant="ghost"
              className="px-3"
              onClick={() => move(index, -1)}
              disabled={index === 0 || moving}
              aria-label={`Move ${item.fileName} up`}
            >
              ↑
            </Button>
            <Button
              variant="ghost"
              className="px-3"
              onClick={() => move(index, 1)}
              disabled={index === items.length - 1 || moving}
              aria-label={`Move ${item.fileName} down`}
            >
              ↓
            </Button>
            <Button
              variant="secondary"
              className="px-3"
              onClick={() => props.onEdit(item)}
              aria-label={`Edit ${item.fileName}`}
            >
              Edit
            </Button>
            <Button
              variant="ghost"
              className="px-3 text-red-800"
              onClick={() => confirmRemove(item)}
              disabled={remove.isPending}
              aria-label={`Delete ${item.fileName}`}
            >
              Delete
            </Button>
          </div>
        </li>
      ))}
    </ol>
  );
}
