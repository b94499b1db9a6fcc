import { useState } from 'react';
import type { ProductMedia } from '../../../../src/shared/catalogue';

export function ProductGallery({ images, title }: { images: ProductMedia[]; title: string }) {
  const [active, setActive] = useState(0);
  const current = images[active] ?? images[0];

  return (
    <div>
      <div className="aspect-square overflow-hidden rounded-2xl bg-sand">
        <img
          src={current?.url ?? '/placeholder.svg'}
          alt={current?.altText ?? title}
          width={800}
          height={800}
          className="h-full w-full object-cover"
          onError={(e) => {
            if (!e.currentTarget.src.endsWith('/placeholder.svg')) e.currentTarget.src = '/placeholder.svg';
          }}
        />
      </div>
      {images.length > 1 ? (
        <ul className="mt-4 flex gap-3" aria-label="More pictures">
          {images.map((img, i) => (
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
                  alt=""
                  className="h-full w-full object-cover"
                  width={80}
                  height={80}
                  loading="lazy"
                />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
