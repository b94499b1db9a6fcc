import { MAX_MEDIA_PER_PRODUCT } from '@shared/media-rules';
import { type DragEvent, useId, useRef, useState } from 'react';
import { buttonClass } from '../../../components/ui/button';
import { useUploadMedia } from './use-media';

const ACCEPT =
  'image/jpeg,image/png,image/webp,image/avif,image/gif,application/pdf,text/plain,video/mp4,video/webm';

/** Drop files or choose them; the file input is the keyboard path, dropping is a pointer extra. */
export function MediaUploadArea(props: { productId: string; used: number; disabled: boolean }) {
  const remaining = MAX_MEDIA_PER_PRODUCT - props.used;
  const { upload, progress } = useUploadMedia(props.productId, remaining);
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const busy = progress !== null;
  const unavailable = props.disabled || busy || remaining <= 0;

  const start = async (files: File[]) => {
    await upload(files);
    if (inputRef.current) inputRef.current.value = '';
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
        className={`${buttonClass('secondary', 'mt-2 cursor-pointer focus-within:ring-2 focus-within:ring-maroon focus-within:ring-offset-2')} ${unavailable ? 'pointer-events-none opacity-50' : ''}`}
      >
        Choose files
        <input
          ref={inputRef}
          type="file"
          multiple
          accept={ACCEPT}
          className="sr-only"
          aria-describedby={hintId}
          disabled={unavailable}
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
