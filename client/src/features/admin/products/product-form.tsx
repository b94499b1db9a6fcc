import { defaultSku, type ProductFieldsInput, productFields } from '@shared/product-input';
import { DEFAULT_SIZES, sortSizes } from '@shared/sizes';
import { slugify } from '@shared/slug';
import { Plus } from 'lucide-react';
import { type FormEvent, useEffect, useId, useMemo, useState } from 'react';
import { ChipsInput } from '../../../components/admin/chips-input';
import { TextAreaField } from '../../../components/admin/text-area-field';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { paths } from '../../../lib/paths';
import { useZodForm } from '../../../lib/use-zod-form';

const IMAGE_FOLDER_BASE = paths.productImageFolderBase();
const CURRENCIES = ['usd', 'eur', 'gbp', 'cad', 'aud', 'pkr', 'inr', 'aed', 'sar', 'jpy'];
const DEFAULT_MEASUREMENTS = ['Chest (in)', 'Length (in)', 'Sleeve (in)'];

export type FormValues = Required<ProductFieldsInput>;

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
  onSubmit,
  onCancel,
}: {
  productId: string;
  initial: FormValues;
  mode: 'create' | 'edit';
  /** Saves the product; a rejection carries the server's reason. */
  onSubmit: (values: FormValues) => Promise<unknown>;
  onCancel: () => void;
}) {
  const form = useZodForm(productFields, initial);
  const { values, set, error } = form;
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

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
    const result = await form.save(async (fields) => {
      setSubmitting(true);
      setServerError(null);
      try {
        await onSubmit(fields);
      } finally {
        setSubmitting(false);
      }
    });
    if (typeof result === 'object') setServerError(result.message);
  };

  return (
    <form
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
          set('sizes', v);
          // A size taken away takes its stock with it.
          set('stock', stockForSizes(values.stock, v));
        }}
        error={error('sizes')}
      />
      <StockEditor
        sizes={sellingSizes(values.sizes)}
        value={values.stock}
        onChange={(v) => set('stock', v)}
        error={error}
        sectionError={form.errors.stock}
      />
      <SizeDetailEditor
        sizes={values.sizes}
        value={values.sizeDetail}
        onChange={(v) => set('sizeDetail', v)}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <ChipsInput
          label="Tags"
          values={values.tags}
          onChange={(v) => set('tags', v)}
          error={error('tags')}
        />
        <ChipsInput
          label="Colours"
          values={values.colors}
          onChange={(v) => set('colors', v)}
          error={error('colors')}
        />
      </div>
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
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
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

/** The sizes a product is sold in: its own, or the default ones when it has none (as the server saves it). */
function sellingSizes(sizes: readonly string[]): string[] {
  return sizes.length > 0 ? [...sizes] : [...DEFAULT_SIZES];
}

/** The stock entries of the sizes the product still has. */
export function stockForSizes(
  stock: Record<string, number>,
  sizes: readonly string[],
): Record<string, number> {
  const kept = new Set(sellingSizes(sizes));
  return Object.fromEntries(Object.entries(stock).filter(([size]) => kept.has(size)));
}

/** One count per size; an empty box leaves the size untracked (always available). */
function StockEditor({
  sizes,
  value,
  onChange,
  error,
  sectionError,
}: {
  sizes: string[];
  value: Record<string, number>;
  onChange: (v: Record<string, number>) => void;
  error: (key: string) => string | undefined;
  sectionError: string | undefined;
}) {
  const hintId = useId();
  const sectionErrorId = useId();
  const setCount = (size: string, text: string) => {
    const { [size]: _dropped, ...rest } = value;
    // An emptied (or unreadable) box stops tracking the size; a fraction or negative stays for Zod to name.
    onChange(text.trim() === '' || !Number.isFinite(Number(text)) ? rest : { ...rest, [size]: Number(text) });
  };
  return (
    <fieldset
      aria-describedby={sectionError ? `${hintId} ${sectionErrorId}` : hintId}
      data-testid="stock-editor"
    >
      <legend className="text-sm font-medium">Stock</legend>
      <p id={hintId} className="mt-1 text-xs text-muted">
        Leave empty for made-to-order sizes: always available.
      </p>
      <div className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-4">
        {sortSizes(sizes).map((size) => (
          <TextField
            key={size}
            label={`Stock for ${size}`}
            type="number"
            min={0}
            step={1}
            inputMode="numeric"
            placeholder="Not tracked"
            value={value[size] === undefined ? '' : String(value[size])}
            onChange={(e) => setCount(size, e.target.value)}
            error={error(`stock.${size}`)}
          />
        ))}
      </div>
      {sectionError ? (
        <p id={sectionErrorId} className="mt-1 text-xs text-red-700">
          {sectionError}
        </p>
      ) : null}
    </fieldset>
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

/** A grid of sizes × measurements; empty cells are dropped on save. */
function SizeDetailEditor({
  sizes,
  value,
  onChange,
}: {
  sizes: string[];
  value: Record<string, Record<string, string>>;
  onChange: (v: Record<string, Record<string, string>>) => void;
}) {
  const fromData = useMemo(
    () => [...new Set(Object.values(value).flatMap((row) => Object.keys(row)))],
    [value],
  );
  const [measurements, setMeasurements] = useState<string[]>(
    fromData.length > 0 ? fromData : DEFAULT_MEASUREMENTS,
  );
  const [newName, setNewName] = useState('');
  const ordered = sortSizes(sizes);
  if (ordered.length === 0) return null;
  const setCell = (size: string, m: string, v: string) =>
    onChange({ ...value, [size]: { ...(value[size] ?? {}), [m]: v } });
  return (
    <fieldset>
      <legend className="text-sm font-medium">Size Details</legend>
      <div className="mt-2 overflow-x-auto">
        <table className="text-sm">
          <thead>
            <tr>
              <th scope="col" className="pr-2 text-left font-medium">
                Size
              </th>
              {measurements.map((m) => (
                <th key={m} scope="col" className="px-1 text-left font-medium whitespace-nowrap">
                  {m}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {ordered.map((size) => (
              <tr key={size}>
                <th scope="row" className="pr-2 text-left font-medium">
                  {size}
                </th>
                {measurements.map((m) => (
                  <td key={m} className="px-1 py-0.5">
                    <input
                      aria-label={`${m} for size ${size}`}
                      value={value[size]?.[m] ?? ''}
                      onChange={(e) => setCell(size, m, e.target.value)}
                      className="w-20 rounded border border-stone-line px-2 py-1"
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="mt-2 flex items-center gap-2">
        <input
          aria-label="New measurement name"
          placeholder="e.g. Hip (cm)"
          value={newName}
          onChange={(e) => setNewName(e.target.value)}
          className="rounded border border-stone-line px-2 py-1 text-sm"
        />
        <Button
          variant="ghost"
          className="px-3 py-1"
          onClick={() => {
            const n = newName.trim();
            if (n && !measurements.includes(n)) setMeasurements([...measurements, n]);
            setNewName('');
          }}
        >
          <Plus aria-hidden="true" className="h-4 w-4" /> Add measurement
        </Button>
      </div>
    </fieldset>
  );
}
