import { useState } from 'react';
import { Modal } from '../../../components/ui/modal';
import { toast } from '../../../lib/toast';
import { trpc } from '../../../lib/trpc';
import { MediaManager } from './media-manager';
import { emptyForm, type FormValues, ProductForm } from './product-form';

const historyTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeStyle: 'short' });

export function AddProductDialog({ onClose }: { onClose: () => void }) {
  const newId = trpc.admin.products.newId.useQuery(undefined, {
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
  const utils = trpc.useUtils();
  const [serverError, setServerError] = useState<string | null>(null);
  const create = trpc.admin.products.create.useMutation({
    onSuccess() {
      toast.success('Product added successfully');
      void utils.admin.products.list.invalidate();
      void utils.catalogue.invalidate();
      onClose();
    },
    onError(err) {
      setServerError(err.message);
      toast.error('Failed to add product');
    },
  });
  return (
    <Modal title="Add New Product" onClose={onClose} wide>
      {newId.data ? (
        <ProductForm
          productId={newId.data.id}
          initial={emptyForm(newId.data.id)}
          mode="create"
          submitting={create.isPending}
          serverError={serverError}
          onSubmit={(fields) => create.mutate({ id: newId.data.id, fields })}
          onCancel={onClose}
        />
      ) : (
        <div className="skeleton h-96 rounded" aria-hidden="true" />
      )}
    </Modal>
  );
}

export function EditProductDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const product = trpc.admin.products.byId.useQuery({ id }, { gcTime: 0 });
  const utils = trpc.useUtils();
  const [serverError, setServerError] = useState<string | null>(null);
  const update = trpc.admin.products.update.useMutation({
    onSuccess() {
      toast.success('Product updated successfully');
      void utils.admin.products.invalidate();
      void utils.catalogue.invalidate();
      onClose();
    },
    onError(err) {
      setServerError(err.message);
      toast.error('Failed to update product');
    },
  });
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
            submitting={update.isPending}
            serverError={serverError}
            onSubmit={(fields) => update.mutate({ id: p.id, expectedUpdatedAt: p.updatedAt, fields })}
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

export function HistoryDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const history = trpc.admin.products.history.useQuery({ id }, { gcTime: 0 });
  return (
    <Modal title="Product History" onClose={onClose} wide>
      {history.isPending ? (
        <div className="skeleton h-40 rounded" aria-hidden="true" />
      ) : !history.data || history.data.length === 0 ? (
        <p className="text-muted">No history found for this product.</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b border-stone-line">
              <th scope="col" className="py-2 pr-3 font-medium">
                Action
              </th>
              <th scope="col" className="py-2 pr-3 font-medium">
                Time
              </th>
              <th scope="col" className="py-2 pr-3 font-medium">
                Product
              </th>
              <th scope="col" className="py-2 font-medium">
                Details
              </th>
            </tr>
          </thead>
          <tbody>
            {history.data.map((h) => (
              <tr key={h.id} className="border-b border-stone-line/60 align-top" data-testid="history-row">
                <td className="py-2 pr-3 capitalize">{h.action}</td>
                <td className="py-2 pr-3 whitespace-nowrap">
                  {historyTime.format(new Date(h.createdAt))}
                  <br />
                  <span className="text-xs text-muted">{h.adminEmail}</span>
                </td>
                <td className="py-2 pr-3">{h.productTitle}</td>
                <td className="py-2">
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
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Modal>
  );
}
