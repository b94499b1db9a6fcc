import { type DragEvent, type FormEvent, useEffect, useId, useRef, useState } from 'react';
import type { AdminMediaItem } from '../../../../../src/modules/media/media.repository';
import {
  isValidMediaUrl,
  MAX_MEDIA_PER_PRODUCT,
  MEDIA_MESSAGES,
  MEDIA_TYPES,
  type MediaTypeName,
  slotsUsedText,
} from '../../../../../src/modules/media/media-rules';
import { Button, buttonClass } from '../../../components/ui/button';
import { keepFocusInside } from '../../../components/ui/modal';
import { TextField } from '../../../components/ui/text-field';
import { toast } from '../../../lib/toast';
import { queryClient, trpc } from '../../../lib/trpc';
import { postWithProgress } from '../../../lib/upload';

/**
 * The app's tRPC hooks, typed with the `admin.media` shape (the same proxy and provider: paths are what
 * count at run time). Once appRouter mounts adminMediaRouter, `trpc.admin.media` works as well.
 */

const ACCEPT =
  'image/jpeg,image/png,image/webp,image/avif,image/gif,application/pdf,text/plain,video/mp4,video/webm';
const TYPE_LABEL: Record<MediaTypeName, string> = { image: 'Image', pdf: 'PDF', txt: 'Text', video: 'Video' };

type UploadResult = { ok: true; count: number } | { ok: false; message: string; unauthorized: boolean };

/** One multipart request with upload progress; the media route answers 201 with the new items. */
async function uploadFiles(
  productId: string,
  files: File[],
  onProgress: (percent: number) => void,
): Promise<UploadResult> {
  const form = new FormData();
  for (const file of files) form.append('files', file, file.name);
  const res = await postWithProgress(
    `/api/admin/products/${encodeURIComponent(productId)}/media`,
    form,
    onProgress,
  );
  const body = res.body as { items?: unknown[]; message?: unknown } | null;
  if (res.status === 201) return { ok: true, count: body?.items?.length ?? files.length };
  return {
    ok: false,
    message: typeof body?.message === 'string' ? body.message : 'Failed to add media',
    unauthorized: res.status === 401,
  };
}

function thumbnailUrl(item: AdminMediaItem): string {
  const small = item.variants.filter((v) => v.format === 'webp').sort((a, b) => a.width - b.width)[0];
  return small?.url ?? item.url;
}

function Preview({ item, size }: { item: AdminMediaItem; size: 'small' | 'large' }) {
  const box = size === 'small' ? 'h-16 w-16' : 'h-48 w-full';
  if (item.mediaType === 'image') {
    return (
      <img
        src={size === 'small' ? thumbnailUrl(item) : item.url}
        alt={item.altText ?? ''}
        className={`${box} rounded-lg bg-sand object-cover`}
        width={size === 'small' ? 64 : (item.width ?? undefined)}
        height={size === 'small' ? 64 : (item.height ?? undefined)}
        loading="lazy"
      />
    );
  }
  if (item.mediaType === 'video' && size === 'large') {
    return (
      // biome-ignore lint/a11y/useMediaCaption: a preview for the admin of a clip uploaded without captions.
      <video src={item.url} controls preload="metadata" className={`${box} rounded-lg bg-ink`} />
    );
  }
  return (
    <span
      className={`${box} flex items-center justify-center rounded-lg bg-sand text-xs font-semibold text-muted uppercase`}
      aria-hidden="true"
    >
      {TYPE_LABEL[item.mediaType]}
    </span>
  );
}

export function MediaManager({ productId }: { productId: string }) {
  const utils = trpc.useUtils();
  const appUtils = trpc.useUtils();
  const list = trpc.admin.media.list.useQuery({ productId });
  const items = list.data?.items ?? [];
  const [editing, setEditing] = useState<AdminMediaItem | null>(null);

  useEffect(() => {
    if (list.isError) toast.error('Failed to load product media');
  }, [list.isError]);

  const refresh = async () => {
    await utils.admin.media.list.invalidate({ productId });
    // The storefront shows the first image and the products table counts images: both pick up the change.
    await Promise.all([appUtils.catalogue.invalidate(), appUtils.admin.products.list.invalidate()]);
  };

  const reorder = trpc.admin.media.reorder.useMutation({
    onSuccess(result) {
      utils.admin.media.list.setData({ productId }, (old) => (old ? { ...old, items: result.items } : old));
      void appUtils.catalogue.invalidate();
    },
    onError() {
      toast.error('Failed to reorder media');
      void utils.admin.media.list.invalidate({ productId });
    },
  });
  const remove = trpc.admin.media.remove.useMutation({
    onSuccess() {
      toast.success('Media deleted successfully');
      void refresh();
    },
    onError() {
      toast.error('Failed to delete media');
    },
  });

  const move = (index: number, delta: -1 | 1) => {
    const target = index + delta;
    if (target < 0 || target >= items.length) return;
    const ids = items.map((m) => m.id);
    const [moved] = ids.splice(index, 1);
    if (moved === undefined) return;
    ids.splice(target, 0, moved);
    // Show the new order at once; a failure reloads the saved one.
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

  const confirmRemove = (item: AdminMediaItem) => {
    if (window.confirm(`Are you sure you want to delete this ${item.mediaType}?`))
      remove.mutate({ id: item.id });
  };

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
        <ol
          className="mt-4 divide-y divide-stone-line rounded-xl border border-stone-line"
          aria-label="Product media"
        >
          {items.map((item, index) => (
            <li key={item.id} className="flex items-center gap-3 p-3" data-testid="media-item">
              <Preview item={item} size="small" />
              <div className="min-w-0 flex-1 text-sm">
                <p className="truncate font-medium" title={item.fileName}>
                  {item.fileName}
                </p>
                <p className="truncate text-xs text-muted">
                  {TYPE_LABEL[item.mediaType]}
                  {item.width && item.height ? ` · ${item.width}×${item.height}` : ''}
                  {item.altText ? ` · ${item.altText}` : ' · no alt text'}
                </p>
              </div>
              <div className="flex flex-wrap justify-end gap-1">
                <Button
                  variant="ghost"
                  className="px-3"
                  onClick={() => move(index, -1)}
                  disabled={index === 0 || reorder.isPending}
                  aria-label={`Move ${item.fileName} up`}
                >
                  ↑
                </Button>
                <Button
                  variant="ghost"
                  className="px-3"
                  onClick={() => move(index, 1)}
                  disabled={index === items.length - 1 || reorder.isPending}
                  aria-label={`Move ${item.fileName} down`}
                >
                  ↓
                </Button>
                <Button
                  variant="secondary"
                  className="px-3"
                  onClick={() => setEditing(item)}
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
      )}

      <UploadArea productId={productId} used={items.length} disabled={!list.data} onUploaded={refresh} />
      <AddByUrlForm productId={productId} used={items.length} disabled={!list.data} onAdded={refresh} />

      {editing ? <EditMediaDialog item={editing} onClose={() => setEditing(null)} onSaved={refresh} /> : null}
    </div>
  );
}

function UploadArea(props: {
  productId: string;
  used: number;
  disabled: boolean;
  onUploaded: () => Promise<void>;
}) {
  const [progress, setProgress] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const remaining = MAX_MEDIA_PER_PRODUCT - props.used;
  const busy = progress !== null;

  const start = async (files: File[]) => {
    if (files.length === 0 || busy) return;
    if (files.length > remaining) {
      toast.error(MEDIA_MESSAGES.limitReached);
      return;
    }
    setProgress(0);
    const result = await uploadFiles(props.productId, files, setProgress);
    setProgress(null);
    if (inputRef.current) inputRef.current.value = '';
    if (result.ok) {
      toast.success('Media added successfully');
      await props.onUploaded();
    } else {
      if (result.unauthorized) queryClient.setQueriesData({ queryKey: [['auth', 'me']] }, null);
      toast.error(result.message || 'Failed to add media');
    }
  };

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setDragging(false);
    if (!props.disabled) void start(Array.from(e.dataTransfer.files));
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dropping files is a pointer extra; the file input inside is the keyboard path.
    <div
      className={`mt-6 rounded-xl border-2 border-dashed p-5 text-center text-sm transition ${dragging ? 'border-maroon bg-sand' : 'border-stone-line'}`}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      data-testid="media-upload"
    >
      <p>Drag and drop files here, or</p>
      <label
        className={`${buttonClass('secondary', 'mt-2 cursor-pointer focus-within:ring-2 focus-within:ring-maroon focus-within:ring-offset-2')} ${props.disabled || busy || remaining <= 0 ? 'pointer-events-none opacity-50' : ''}`}
      >
        Choose files
        <input
          ref={inputRef}
          type="file"
          multiple
          accept={ACCEPT}
          className="sr-only"
          aria-describedby={hintId}
          disabled={props.disabled || busy || remaining <= 0}
          onChange={(e) => void start(Array.from(e.currentTarget.files ?? []))}
        />
      </label>
      <p id={hintId} className="mt-2 text-xs text-muted">
        JPEG, PNG, WebP, AVIF or GIF images up to 15 MB; PDF or plain text up to 10 MB; MP4 or WebM video up
        to 100 MB.
      </p>
      {busy ? (
        <div className="mt-3">
          <progress className="w-full" max={100} value={progress} aria-label="Upload progress" />
          <p className="text-xs text-muted" aria-live="polite">
            {progress < 100 ? `Uploading… ${progress}%` : 'Processing…'}
          </p>
        </div>
      ) : null}
    </div>
  );
}

type FieldErrors = Partial<Record<'url' | 'fileName' | 'altText' | 'form', string>>;

function serverFieldErrors(data: unknown): FieldErrors {
  const fieldErrors = (
    data as { zodError?: { fieldErrors?: Record<string, string[] | undefined> } | null } | null
  )?.zodError?.fieldErrors;
  return {
    url: fieldErrors?.url?.[0],
    fileName: fieldErrors?.fileName?.[0],
    altText: fieldErrors?.altText?.[0],
  };
}

function AddByUrlForm(props: {
  productId: string;
  used: number;
  disabled: boolean;
  onAdded: () => Promise<void>;
}) {
  const [url, setUrl] = useState('');
  const [fileName, setFileName] = useState('');
  const [mediaType, setMediaType] = useState<MediaTypeName>('image');
  const [altText, setAltText] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const typeId = useId();
  const add = trpc.admin.media.addUrl.useMutation({
    onSuccess() {
      toast.success('Media added successfully');
      setUrl('');
      setFileName('');
      setAltText('');
      setMediaType('image');
      setErrors({});
      void props.onAdded();
    },
    onError(error) {
      const fields = serverFieldErrors(error.data);
      const limit = error.data?.code === 'CONFLICT' ? error.message : undefined;
      setErrors({ ...fields, form: limit });
      toast.error(limit ?? 'Failed to add media');
    },
  });

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const next: FieldErrors = {};
    if (!isValidMediaUrl(url)) next.url = MEDIA_MESSAGES.invalidUrl;
    if (fileName.trim() === '') next.fileName = MEDIA_MESSAGES.missingFileName;
    if (props.used >= MAX_MEDIA_PER_PRODUCT) next.form = MEDIA_MESSAGES.limitReached;
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    add.mutate({ productId: props.productId, url: url.trim(), fileName, mediaType, altText });
  };

  return (
    <form onSubmit={submit} noValidate className="mt-6 space-y-3" aria-label="Add media by URL">
      <h4 className="font-medium">Add by URL</h4>
      <TextField
        label="URL"
        type="url"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        onBlur={() => {
          if (fileName === '' && isValidMediaUrl(url)) {
            const last = url.split(/[?#]/)[0]?.split('/').pop() ?? '';
            if (last) setFileName(decodeURIComponent(last));
          }
        }}
        placeholder="https://… or /media/…"
        error={errors.url}
      />
      <div className="grid gap-3 sm:grid-cols-[1fr_12rem]">
        <TextField
          label="File name"
          value={fileName}
          onChange={(e) => setFileName(e.target.value)}
          error={errors.fileName}
        />
        <div>
          <label htmlFor={typeId} className="block text-sm font-medium text-ink">
            Media type
          </label>
          <select
            id={typeId}
            value={mediaType}
            onChange={(e) => setMediaType(e.target.value as MediaTypeName)}
            className="mt-1 block w-full rounded-lg border border-stone-line bg-white px-3 py-2 text-sm"
          >
            {MEDIA_TYPES.map((t) => (
              <option key={t} value={t}>
                {TYPE_LABEL[t]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <TextField
        label="Alt Text"
        value={altText}
        onChange={(e) => setAltText(e.target.value)}
        placeholder="Describe this media (for accessibility)"
        error={errors.altText}
      />
      {errors.form ? (
        <p className="text-sm text-red-700" role="alert">
          {errors.form}
        </p>
      ) : null}
      <Button type="submit" disabled={props.disabled || add.isPending}>
        {add.isPending ? 'Adding…' : 'Add media'}
      </Button>
    </form>
  );
}

function EditMediaDialog(props: { item: AdminMediaItem; onClose: () => void; onSaved: () => Promise<void> }) {
  const { item } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  // Open once on mount. (A ref callback would run again on every render and reopen a dialog being closed.)
  useEffect(() => {
    const el = dialog.current;
    if (el && !el.open) el.showModal();
  }, []);
  const titleId = useId();
  const [url, setUrl] = useState(item.url);
  const [altText, setAltText] = useState(item.altText ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const update = trpc.admin.media.update.useMutation({
    onSuccess() {
      toast.success('Media updated successfully');
      void props.onSaved();
      dialog.current?.close();
    },
    onError(error) {
      setErrors(serverFieldErrors(error.data));
      toast.error('Failed to update media');
    },
  });

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!isValidMediaUrl(url)) {
      setErrors({ url: MEDIA_MESSAGES.invalidUrl });
      return;
    }
    const changedUrl = url.trim() !== item.url;
    update.mutate({ id: item.id, ...(changedUrl ? { url: url.trim() } : {}), altText });
  };

  return (
    <dialog
      ref={dialog}
      onClose={(e) => {
        // React passes a nested dialog's close up the component tree: only our own counts.
        if (e.target === e.currentTarget) props.onClose();
      }}
      aria-labelledby={titleId}
      onKeyDown={keepFocusInside}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-2xl bg-white p-6 text-ink shadow-xl backdrop:bg-ink/40"
    >
      <h2 id={titleId} className="font-serif text-2xl">
        Edit Media
      </h2>
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
        <Preview item={item} size="large" />
        <TextField
          label="URL"
          type="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          error={errors.url}
          hint={
            item.uploaded
              ? 'This file was uploaded here; pointing it at another URL deletes the upload.'
              : undefined
          }
        />
        <TextField
          label="Alt Text"
          value={altText}
          onChange={(e) => setAltText(e.target.value)}
          placeholder="Describe this media (for accessibility)"
          error={errors.altText}
        />
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={() => dialog.current?.close()}>
            Cancel
          </Button>
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? 'Saving…' : 'Save changes'}
          </Button>
        </div>
      </form>
    </dialog>
  );
}
