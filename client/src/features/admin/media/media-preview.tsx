import type { MediaTypeName } from '@shared/media-rules';
import type { MediaItem } from './use-media';

export const MEDIA_TYPE_LABEL: Record<MediaTypeName, string> = {
  image: 'Image',
  pdf: 'PDF',
  txt: 'Text',
  video: 'Video',
};

function thumbnailUrl(item: MediaItem): string {
  const small = item.variants.filter((v) => v.format === 'webp').sort((a, b) => a.width - b.width)[0];
  return small?.url ?? item.url;
}

/** A thumbnail in the list, or the full item in the edit dialog; files without a picture show their type. */
export function MediaPreview({ item, size }: { item: MediaItem; size: 'small' | 'large' }) {
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
      {MEDIA_TYPE_LABEL[item.mediaType]}
    </span>
  );
}
