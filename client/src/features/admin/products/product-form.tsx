import { defaultSku, type ProductFieldsInput } from '@shared/product-input';
import { slugify } from '@shared/slug';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { ChipsInput } from '../../../components/admin/chips-input';
import { TextAreaField } from '../../../components/admin/text-area-field';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { paths } from '../../../lib/paths';
import { useZodForm } from '../../../lib/use-zod-form';
import { ColoursEditor, type ProductPhoto } from './colours-editor';
import {
  type FormValues,
  productFormCheck,
  sellingSizes,
  stockForSizes,
  toFieldsInput,
} from './product-form-state';
import { SizeDetailEditor } from './size-detail-editor';
import { StockGrid } from './stock-grid';

const IMAGE_FOLDER_BASE = paths.productImageFolderBase();
const CURRENCIES = ['usd', 'eur', 'gbp', 'cad', 'aud', 'pkr', 'inr', 'aed', 'sar', 'jpy'];

export type { FormValues };

export function emptyForm(id: string): FormValues {
  return {
    title: '',
    description: '',
    manufacturer: '',
    manufacturerUrl: '',
    sku: defaultSku(id),
    price: '',
    currency: 'usd',
    pageOrder: 999,
    sizes: ['S', 'M', 'L', 'XL'],
    tags: [],
    colors: [],
    sizeDetail: {},
    stripePaymentLink: '',
    productLink: '',
    imageFolder: `${IMAGE_FOLDER_BASE}${id}/new-product`,
    stock: {},
  };
}

export function ProductForm({
  productId,
  initial,
  mode,
  photos,
  onSubmit,
  onCancel,
}: {
  productId: string;
  initial: FormValues;
  mode: 'create' | 'edit';
  /** The product's photos its colours can claim; null for a product not saved yet, undefined while loading. */
  photos: ProductPhoto[] | null | undefined;
  /** Saves the product; a rejection carries the server's reason. */
  onSubmit: (fields: ProductFieldsInput) => Promise<unknown>;
  onCancel: () => void;
}) {
  // The server's own field errors are inside { id, fields }: read at their full paths (colors.2.name).
  const form = useZodForm(productFormCheck, initial, { serverField: 'fields' });
  const { values, set, error } = form;
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const focusError = useRef(false);
  const serverErrorId = useId();

  // After a refused save, the first field that says what is wrong takes the focus.
  useEffect(() => {
    if (!focusError.current || Object.keys(form.errors).length === 0) return;
    focusError.current = false;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-field-error]')?.focus();
  }, [form.errors]);

  // While creating, the image folder follows the title's slug.
  // biome-ignore lint/correctness/useExhaustiveDependencies: it must rerun exactly when the title changes.
  useEffect(() => {
    if (mode !== 'create') return;
    form.setValues((v) => ({
      ...v,
      imageFolder: `${IMAGE_FOLDER_BASE}${productId}/${slugify(v.title) || 'new-product'}`,
    }));
  }, [values.title, mode, productId]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    focusError.current = true;
    const result = await form.save(async (fields) => {
      setSubmitting(true);
      setServerError(null);
      try {
        // Photos since removed are left out: the server refuses a colour photo the product does not have.
        await onSubmit(toFieldsInput(fields, photos ? new Set(photos.map((p) => p.url)) : undefined));
      } finally {
        setSubmitting(false);
      }
    });
    if (typeof result === 'object' && Object.keys(result.fieldErrors).length === 0) {
      focusError.current = false;
      setServerError(result.message);
      // Nothing to point at: the message itself is read out (role=alert) and focused.
      requestAnimationFrame(() => document.getElementById(serverErrorId)?.focus());
    }
  };

  return (
    <form
      ref={formRef}
      onSubmit={(e) => void submit(e)}
      noValidate
      className="space-y-5"
      aria-label={mode === 'create' ? 'New product' : 'Edit product'}
    >
      <p className="text-xs text-muted">
        ID <span className="font-mono">{productId}</span>
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Title"
          value={values.title}
          onChange={(e) => set('title', e.target.value)}
          error={error('title')}
          required
        />
        <TextField
          label="SKU"
          value={values.sku}
          onChange={(e) => set('sku', e.target.value)}
          error={error('sku')}
          required
        />
      </div>
      <TextAreaField
        label="Description"
        value={values.description}
        onChange={(v) => set('description', v)}
        error={error('description')}
      />
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField
          label="Price"
          type="number"
          min={0}
          step={0.01}
          inputMode="decimal"
          value={values.price}
          onChange={(e) => set('price', e.target.value)}
          error={error('price')}
          required
        />
        <SelectField
          label="Currency"
          value={values.currency}
          options={CURRENCIES}
          onChange={(v) => set('currency', v)}
          error={error('currency')}
        />
        <TextField
          label="Page order"
          type="number"
          min={0}
          // A decimal sort key: 2.5 goes between 2 and 3.
          step="any"
          inputMode="decimal"
          // A number, not its text: React then leaves "2." and "2.50" as typed while they are the same value.
          value={values.pageOrder}
          onChange={(e) => set('pageOrder', e.target.value === '' ? 999 : Number(e.target.value))}
          error={error('pageOrder')}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Manufacturer"
          value={values.manufacturer}
          onChange={(e) => set('manufacturer', e.target.value)}
          error={error('manufacturer')}
        />
        <TextField
          label="Manufacturer URL"
          type="url"
          value={values.manufacturerUrl}
          onChange={(e) => set('manufacturerUrl', e.target.value)}
          error={error('manufacturerUrl')}
        />
      </div>
      <ChipsInput
        label="Sizes"
        values={values.sizes}
        onChange={(v) => {
          // A size taken away takes its stock with it, in every colour.
          form.setValues((x) => ({
            ...x,
            sizes: v,
            stock: stockForSizes(x.stock, v),
            colors: x.colors.map((c) => ({ ...c, stock: stockForSizes(c.stock, v) })),
          }));
        }}
        error={error('sizes')}
      />
      <ColoursEditor
        colours={values.colors}
        onChange={(colors) => set('colors', colors)}
        sizes={values.sizes}
        currency={values.currency}
        photos={photos ?? (mode === 'create' ? null : [])}
        error={error}
        sectionError={form.errors.colors}
      />
      <StockGrid
        sizes={sellingSizes(values.sizes)}
        stock={values.stock}
        onStockChange={(v) => set('stock', v)}
        colours={values.colors}
        onColourStockChange={(key, stock) =>
          form.setValues((x) => ({
            ...x,
            colors: x.colors.map((c) => (c.key === key ? { ...c, stock } : c)),
          }))
        }
        error={error}
        sectionError={form.errors.stock ?? form.errors.colourStock}
      />
      <SizeDetailEditor
        sizes={values.sizes}
        value={values.sizeDetail}
        onChange={(v) => set('sizeDetail', v)}
      />
      <ChipsInput label="Tags" values={values.tags} onChange={(v) => set('tags', v)} error={error('tags')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Payment link (optional)"
          type="url"
          placeholder="https://buy.stripe.com/..."
          value={values.stripePaymentLink}
          onChange={(e) => set('stripePaymentLink', e.target.value)}
          error={error('stripePaymentLink')}
        />
        <TextField
          label="Product link"
          type="url"
          value={values.productLink}
          onChange={(e) => set('productLink', e.target.value)}
          error={error('productLink')}
        />
      </div>
      <TextField
        label="Image folder"
        value={values.imageFolder}
        onChange={(e) => set('imageFolder', e.target.value)}
        error={error('imageFolder')}
      />
      {serverError ? (
        <p
          id={serverErrorId}
          role="alert"
          tabIndex={-1}
          className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800"
        >
          {serverError}
        </p>
      ) : null}
      {form.hasErrors ? (
        <p role="alert" className="text-sm text-red-700">
          Please correct the highlighted fields.
        </p>
      ) : null}
      <div className="flex justify-end gap-3">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={submitting}>
          {submitting ? 'Saving…' : mode === 'create' ? 'Add Product' : 'Save Product'}
        </Button>
      </div>
    </form>
  );
}

function SelectField({
  label,
  value,
  options,
  onChange,
  error,
}: {
  label: string;
  value: string;
  options: string[];
  onChange: (v: string) => void;
  error?: string | undefined;
}) {
  const id = useId();
  const all = options.includes(value) ? options : [value, ...options];
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="mt-1 block w-full rounded-lg border border-stone-line bg-white px-3 py-2 text-sm"
      >
        {all.map((c) => (
          <option key={c} value={c}>
            {c.toUpperCase()}
          </option>
        ))}
      </select>
      {error ? <p className="mt-1 text-xs text-red-700">{error}</p> : null}
    </div>
  );
}
