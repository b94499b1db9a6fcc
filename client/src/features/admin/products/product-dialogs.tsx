import { type Column, DataTable } from '../../../components/admin/data-table';
import { Modal } from '../../../components/ui/modal';
import { MediaManager } from '../media/media-manager';
import { emptyForm, type FormValues, ProductForm } from './product-form';
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
  const p = product.data;
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
        colors: p.colors,
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
            onSubmit={(fields) => update.mutateAsync({ id: p.id, expectedUpdatedAt: p.updatedAt, fields })}
            onCancel={onClose}
          />
          <section aria-label="Media" className="border-t border-stone-line pt-6">
            <MediaManager productId={p.id} />
          </section>
        </div>
      ) : product.isError ? (
        <p role="alert">{product.error.message}</p>
      ) : (
        <div className="skeleton h-96 rounded" aria-hidden="true" />
      )}
    </Modal>
  );
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
                <span className="font-medium">{c.field}</span>: {JSON.stringify(c.from)} →{' '}
                {JSON.stringify(c.to)}
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
