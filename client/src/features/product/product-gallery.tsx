import { useState } from 'react';
import { responsiveImage } from '../../../../src/modules/media/responsive-image';
import type { ProductMedia } from '../../../../src/shared/catalogue';

const PLACEHOLDER = '/placeholder.svg';
/** The gallery takes the full width on small screens and half of the page (max-w-7xl) from lg. */
const MAIN_SIZES = '(min-width: 1280px) 616px, (min-width: 1024px) 50vw, 100vw';
const THUMB_SIZES = '80px';

export function ProductGallery({ images, title }: { images: ProductMedia[]; title: string }) {
  const [active, setActive] = useState(0);
  const [failed, setFailed] = useState<string | null>(null);
  const current = images[active] ?? images[0];
  // Uploaded images carry web variants (srcset, AVIF); demo and URL images are a single file.
  const responsive = current && failed !== current.id ? responsiveImage(current) : null;

  const main = (
    <img
      src={current && failed !== current.id ? current.url : PLACEHOLDER}
      srcSet={responsive?.srcSet}
      sizes={responsive ? MAIN_SIZES : undefined}
      alt={current?.altText ?? title}
      width={responsive?.width ?? 800}
      height={responsive?.height ?? 800}
      fetchPriority="high"
      className="h-full w-full object-cover"
      onError={() => {
        // Fall back to the placeholder (dropping any srcset, which would win over src).
        if (current) setFailed(current.id);
      }}
    />
  );

  return (
    <div>
      <div className="aspect-square overflow-hidden rounded-2xl bg-sand">
        {responsive?.avifSrcSet ? (
          <picture className="contents">
            <source type="image/avif" srcSet={responsive.avifSrcSet} sizes={MAIN_SIZES} />
            {main}
          </picture>
        ) : (
          main
        )}
      </div>
      {images.length > 1 ? (
        <ul className="mt-4 flex gap-3" aria-label="More pictures">
          {images.map((img, i) => {
            const thumb = responsiveImage(img);
            return (
              <li key={img.id}>
                <button
                  type="button"
                  onClick={() => setActive(i)}
                  aria-label={`Show picture ${i + 1} of ${images.length}`}
                  aria-pressed={i === active}
                  className={`h-20 w-20 overflow-hidden rounded-lg border-2 ${i === active ? 'border-maroon' : 'border-transparent'}`}
                >
                  <img
                    src={img.url}
                    srcSet={thumb?.srcSet}
                    sizes={thumb ? THUMB_SIZES : undefined}
                    alt=""
                    className="h-full w-full object-cover"
                    width={80}
                    height={80}
                    loading="lazy"
                  />
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}
