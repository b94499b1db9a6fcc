import type { ProductMedia } from '@shared/catalogue';
import { responsiveImage } from '@shared/responsive-image';
import { useState } from 'react';
import { useImageState } from '../../lib/use-image-state';

const PLACEHOLDER = '/placeholder.svg';
/** The gallery takes the full width on small screens and half of the page (max-w-7xl) from lg. */
const MAIN_SIZES = '(min-width: 1280px) 616px, (min-width: 1024px) 50vw, 100vw';
const THUMB_SIZES = '80px';

export function ProductGallery({ images, title }: { images: ProductMedia[]; title: string }) {
  const [active, setActive] = useState(0);
  const current = images[active] ?? images[0];

  return (
    <div>
      <div className="aspect-square overflow-hidden rounded-2xl bg-sand">
        {/* Keyed by picture: each one starts with its own load state. */}
        <MainPicture key={current?.id ?? 'none'} media={current} title={title} />
      </div>
      {images.length > 1 ? (
        <ul className="mt-4 flex gap-3" aria-label="More pictures">
          {images.map((img, i) => {
            return (
              <li key={img.id}>
                <button
                  type="button"
                  onClick={() => setActive(i)}
                  aria-label={`Show picture ${i + 1} of ${images.length}`}
                  aria-pressed={i === active}
                  className={`h-20 w-20 overflow-hidden rounded-lg border-2 ${i === active ? 'border-maroon' : 'border-transparent'}`}
                >
                  <Thumbnail media={img} />
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}

function MainPicture({ media, title }: { media: ProductMedia | undefined; title: string }) {
  const picture = useImageState();
  const failed = !media || picture.state === 'failed';
  // Uploaded images carry web variants (srcset, AVIF); demo and URL images are a single file.
  const responsive = failed ? null : responsiveImage(media);
  const img = (
    <img
      ref={picture.ref}
      src={failed ? PLACEHOLDER : media.url}
      srcSet={responsive?.srcSet}
      sizes={responsive ? MAIN_SIZES : undefined}
      alt={media?.altText ?? title}
      width={responsive?.width ?? 800}
      height={responsive?.height ?? 800}
      fetchPriority="high"
      className="h-full w-full object-cover"
      data-state={picture.state}
      onLoad={picture.onLoad}
      // A failed picture falls back to the placeholder (dropping any srcset, which would win over src).
      onError={picture.onError}
    />
  );
  if (!responsive?.avifSrcSet) return img;
  return (
    <picture className="contents">
      <source type="image/avif" srcSet={responsive.avifSrcSet} sizes={MAIN_SIZES} />
      {img}
    </picture>
  );
}

function Thumbnail({ media }: { media: ProductMedia }) {
  const picture = useImageState();
  const failed = picture.state === 'failed';
  const thumb = failed ? null : responsiveImage(media);
  return (
    <img
      ref={picture.ref}
      src={failed ? PLACEHOLDER : media.url}
      srcSet={thumb?.srcSet}
      sizes={thumb ? THUMB_SIZES : undefined}
      alt=""
      className="h-full w-full object-cover"
      width={80}
      height={80}
      loading="lazy"
      data-state={picture.state}
      onLoad={picture.onLoad}
      onError={picture.onError}
    />
  );
}
