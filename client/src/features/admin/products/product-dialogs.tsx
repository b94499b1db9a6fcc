import { type Column, DataTable } from '../../../components/admin/data-table';
import { Modal } from '../../../components/ui/modal';
import { MediaManager } from '../media/media-manager';
import { useMediaList } from '../media/use-media';
import type { ProductPhoto } from './colours-editor';
import { emptyForm, type FormValues, ProductForm } from './product-form';
import { colourDrafts } from './product-form-state';
import { ProductReturns } from './product-returns';
import {
  useCreateProduct,
  useNewProductId,
  useProduct,
  useProductHistory,
  useUpdateProduct,
} from './use-products';

const historyTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeStyle: 'short' });

export function AddProductDialog({ onClose }: { onClose: () => void }) {
  const newId = useNewProductId();
  const create = useCreateProduct({ onDone: onClose });
  return (
    <Modal title="Add New Product" onClose={onClose} wide>
      {newId.data ? (
        <ProductForm
          productId={newId.data.id}
          initial={emptyForm(newId.data.id)}
          mode="create"
          photos={null}
          onSubmit={(fields) => create.mutateAsync({ id: newId.data.id, fields })}
          onCancel={onClose}
        />
      ) : (
        <div className="skeleton h-96 rounded" aria-hidden="true" />
      )}
    </Modal>
  );
}

export function EditProductDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const product = useProduct(id);
  const update = useUpdateProduct({ onDone: onClose });
  const media = useMediaList(id);
  const p = product.data;
  const photos = p && media.list.data ? productPhotos(media.items, p.listedImages) : undefined;
  const initial: FormValues | null = p
    ? {
        title: p.title,
        description: p.description,
        manufacturer: p.manufacturer,
        manufacturerUrl: p.manufacturerUrl,
        sku: p.sku,
        price: p.price,
        currency: p.currency,
        pageOrder: p.pageOrder,
        sizes: p.sizes.length > 0 ? p.sizes : ['S', 'M', 'L', 'XL'],
        tags: p.tags,
        colors: colourDrafts(p.colors, p.colourStock),
        sizeDetail: p.sizeDetail,
        stripePaymentLink: p.stripePaymentLink,
        productLink: p.productLink,
        imageFolder: p.imageFolder,
        stock: p.stock ?? {},
      }
    : null;
  return (
    <Modal title="Edit Product" onClose={onClose} wide>
      {p && initial ? (
        <div className="space-y-8">
          <ProductForm
            productId={p.id}
            initial={initial}
            mode="edit"
            photos={photos}
            onSubmit={(fields) => update.mutateAsync({ id: p.id, expectedUpdatedAt: p.updatedAt, fields })}
            onCancel={onClose}
          />
          <section aria-label="Media" className="border-t border-stone-line pt-6">
            <MediaManager productId={p.id} />
          </section>
          <ProductReturns productId={p.id} />
        </div>
      ) : product.isError ? (
        <p role="alert">{product.error.message}</p>
      ) : (
        <div className="skeleton h-96 rounded" aria-hidden="true" />
      )}
    </Modal>
  );
}

/**
 * The photos a colour can claim: the product's pictures in the media manager's order (kept live as photos
 * are added there), then image URLs only its catalogue file listed.
 */
function productPhotos(
  items: ReturnType<typeof useMediaList>['items'],
  listedImages: readonly string[],
): ProductPhoto[] {
  const fromMedia = items
    .filter((m) => m.mediaType === 'image')
    .map((m) => ({
      url: m.url,
      thumbnail:
        m.variants.filter((v) => v.format === 'webp').sort((a, b) => a.width - b.width)[0]?.url ?? m.url,
      altText: m.altText,
      fileName: m.fileName,
    }));
  const seen = new Set(fromMedia.map((m) => m.url));
  const listed = listedImages
    .filter((url) => !seen.has(url))
    .map((url) => ({ url, thumbnail: url, altText: null, fileName: url.split('/').pop() || url }));
  return [...fromMedia, ...listed];
}

type HistoryEntry = NonNullable<ReturnType<typeof useProductHistory>['data']>[number];

const historyColumns: Array<Column<HistoryEntry>> = [
  { id: 'action', header: 'Action', cellClassName: 'capitalize align-top', cell: (h) => h.action },
  {
    id: 'time',
    header: 'Time',
    cellClassName: 'whitespace-nowrap align-top',
    cell: (h) => (
      <>
        {historyTime.format(new Date(h.createdAt))}
        <br />
        <span className="text-xs text-muted">{h.adminEmail}</span>
      </>
    ),
  },
  { id: 'product', header: 'Product', cellClassName: 'align-top', cell: (h) => h.productTitle },
  {
    id: 'details',
    header: 'Details',
    cellClassName: 'align-top',
    cell: (h) => (
      <>
        {h.changes.length > 0 ? (
          <ul className="mb-1 space-y-0.5">
            {h.changes.map((c) => (
              <li key={c.field}>
                <span className="font-medium">{c.field}</span>:{' '}
                {/* "colour added: Teal" and "colour removed: Maroon" have one side only. */}
                {c.from === null
                  ? JSON.stringify(c.to)
                  : c.to === null
                    ? JSON.stringify(c.from)
                    : `${JSON.stringify(c.from)} → ${JSON.stringify(c.to)}`}
              </li>
            ))}
          </ul>
        ) : null}
        <details>
          <summary className="cursor-pointer text-xs text-maroon">Raw product data</summary>
          <pre className="mt-1 max-h-64 overflow-auto rounded bg-sand/60 p-2 text-xs">
            {JSON.stringify(h.snapshot, null, 2)}
          </pre>
        </details>
      </>
    ),
  },
];

export function HistoryDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const history = useProductHistory(id);
  return (
    <Modal title="Product History" onClose={onClose} wide>
      <DataTable
        label="Product history"
        columns={historyColumns}
        rows={history.data}
        rowKey={(h) => h.id}
        rowTestId="history-row"
        empty={<p className="text-muted">No history found for this product.</p>}
      />
    </Modal>
  );
}
