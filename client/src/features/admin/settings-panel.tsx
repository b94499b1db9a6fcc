import { type SettingsInput, settingsInput } from '@shared/settings-input';
import { Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Button } from '../../components/ui/button';
import { ChipsInput } from '../../components/ui/chips-input';
import { TextAreaField } from '../../components/ui/text-area-field';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../lib/toast';
import { trpc } from '../../lib/trpc';

type Values = SettingsInput;

export function SettingsPanel() {
  const settings = trpc.admin.settings.get.useQuery(undefined, { gcTime: 0 });
  if (settings.isPending) return <div className="skeleton h-96 rounded" aria-hidden="true" />;
  if (settings.isError) return <p role="alert">{settings.error.message}</p>;
  return <SettingsForm initial={settings.data} />;
}

function SettingsForm({ initial }: { initial: Values }) {
  const [values, setValues] = useState<Values>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const utils = trpc.useUtils();
  const save = trpc.admin.settings.update.useMutation({
    onSuccess() {
      toast.success('Settings saved');
      void utils.site.settings.invalidate();
      void utils.admin.settings.get.invalidate();
    },
    onError(err) {
      toast.error(
        err.message === 'Invalid input'
          ? 'Please correct the highlighted fields.'
          : 'Failed to save settings',
      );
    },
  });
  useEffect(() => setValues(initial), [initial]);
  const set = <K extends keyof Values>(key: K, value: Values[K]) =>
    setValues((v) => ({ ...v, [key]: value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const result = settingsInput.safeParse(values);
    if (!result.success) {
      const found: Record<string, string> = {};
      for (const issue of result.error.issues) {
        const key = issue.path.join('.');
        found[key] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    save.mutate(values);
  };

  return (
    <form onSubmit={submit} noValidate className="max-w-3xl space-y-6" aria-label="Store settings">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Store name"
          value={values.storeName}
          onChange={(e) => set('storeName', e.target.value)}
          error={errors.storeName}
        />
        <TextField
          label="Tagline"
          value={values.tagline}
          onChange={(e) => set('tagline', e.target.value)}
          error={errors.tagline}
        />
      </div>
      <TextAreaField
        label="About text"
        value={values.aboutText}
        onChange={(v) => set('aboutText', v)}
        error={errors.aboutText}
      />
      <TextAreaField
        label="Footer disclaimer"
        value={values.disclaimer}
        onChange={(v) => set('disclaimer', v)}
        error={errors.disclaimer}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Special order URL"
          type="url"
          value={values.specialOrderUrl}
          onChange={(e) => set('specialOrderUrl', e.target.value)}
          error={errors.specialOrderUrl}
        />
        <TextField
          label="Contact URL"
          type="url"
          value={values.contactUrl}
          onChange={(e) => set('contactUrl', e.target.value)}
          error={errors.contactUrl}
        />
      </div>
      <fieldset className="space-y-3 rounded-xl border border-stone-line p-4">
        <legend className="px-1 text-sm font-medium">Banner</legend>
        <TextField
          label="Banner title"
          value={values.bannerTitle}
          onChange={(e) => set('bannerTitle', e.target.value)}
          error={errors.bannerTitle}
        />
        <TextField
          label="Banner description"
          value={values.bannerDescription}
          onChange={(e) => set('bannerDescription', e.target.value)}
          error={errors.bannerDescription}
        />
        <TextField
          label="Banner image URL"
          hint="A full https URL, or a path of an uploaded file such as /media/uploads/…"
          value={values.bannerImageUrl}
          onChange={(e) => set('bannerImageUrl', e.target.value)}
          error={errors.bannerImageUrl}
        />
        <BannerUpload onUploaded={(url) => set('bannerImageUrl', url)} />
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={values.bannerActive}
            onChange={(e) => set('bannerActive', e.target.checked)}
            className="h-4 w-4 accent-maroon"
          />
          Show the banner on the home page
        </label>
      </fieldset>
      <Credits values={values.credits} onChange={(v) => set('credits', v)} />
      <ChipsInput
        label="Shipping countries"
        values={values.shippingCountries}
        onChange={(v) =>
          set(
            'shippingCountries',
            v.map((c) => c.toUpperCase()),
          )
        }
        placeholder="Two-letter code, then Enter"
        error={
          errors.shippingCountries ??
          Object.entries(errors).find(([k]) => k.startsWith('shippingCountries.'))?.[1]
        }
      />
      <ShippingOptions
        values={values.shippingOptions}
        onChange={(v) => set('shippingOptions', v)}
        errors={errors}
      />
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save settings'}
      </Button>
    </form>
  );
}

function Credits({
  values,
  onChange,
}: {
  values: Values['credits'];
  onChange: (v: Values['credits']) => void;
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">Credits</legend>
      {values.map((c, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place and have no identity.
        <div key={i} className="flex gap-2">
          <input
            aria-label={`Credit ${i + 1} role`}
            value={c.role}
            onChange={(e) => onChange(values.map((x, j) => (j === i ? { ...x, role: e.target.value } : x)))}
            className="flex-1 rounded-lg border border-stone-line px-3 py-1.5 text-sm"
          />
          <input
            aria-label={`Credit ${i + 1} name`}
            value={c.name}
            onChange={(e) => onChange(values.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))}
            className="flex-1 rounded-lg border border-stone-line px-3 py-1.5 text-sm"
          />
          <button
            type="button"
            aria-label={`Remove credit ${i + 1}`}
            onClick={() => onChange(values.filter((_, j) => j !== i))}
            className="rounded p-1.5 text-muted hover:text-red-700"
          >
            <Trash2 aria-hidden="true" className="h-4 w-4" />
          </button>
        </div>
      ))}
      <Button
        variant="ghost"
        className="px-3 py-1"
        onClick={() => onChange([...values, { role: '', name: '' }])}
        disabled={values.length >= 20}
      >
        <Plus aria-hidden="true" className="h-4 w-4" /> Add credit
      </Button>
    </fieldset>
  );
}

function ShippingOptions({
  values,
  onChange,
  errors,
}: {
  values: Values['shippingOptions'];
  onChange: (v: Values['shippingOptions']) => void;
  errors: Record<string, string>;
}) {
  const update = (i: number, change: Partial<Values['shippingOptions'][number]>) =>
    onChange(values.map((x, j) => (j === i ? { ...x, ...change } : x)));
  const days = (v: string) => (v === '' ? null : Number(v));
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">Shipping options (up to 5)</legend>
      {values.map((o, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place and have no identity.
        <div key={i} className="grid grid-cols-[2fr_1fr_5rem_4rem_4rem_auto] items-start gap-2 text-sm">
          <input
            aria-label={`Option ${i + 1} name`}
            value={o.label}
            onChange={(e) => update(i, { label: e.target.value })}
            className="rounded-lg border border-stone-line px-2 py-1.5"
          />
          <div>
            <input
              aria-label={`Option ${i + 1} amount`}
              inputMode="decimal"
              value={o.amount}
              onChange={(e) => update(i, { amount: e.target.value })}
              className="w-full rounded-lg border border-stone-line px-2 py-1.5"
            />
            {errors[`shippingOptions.${i}.amount`] ? (
              <p className="text-xs text-red-700">{errors[`shippingOptions.${i}.amount`]}</p>
            ) : null}
          </div>
          <input
            aria-label={`Option ${i + 1} currency`}
            value={o.currency}
            onChange={(e) => update(i, { currency: e.target.value })}
            className="rounded-lg border border-stone-line px-2 py-1.5"
          />
          <input
            aria-label={`Option ${i + 1} minimum days`}
            type="number"
            min={0}
            value={o.minDays ?? ''}
            onChange={(e) => update(i, { minDays: days(e.target.value) })}
            className="rounded-lg border border-stone-line px-2 py-1.5"
          />
          <input
            aria-label={`Option ${i + 1} maximum days`}
            type="number"
            min={0}
            value={o.maxDays ?? ''}
            onChange={(e) => update(i, { maxDays: days(e.target.value) })}
            className="rounded-lg border border-stone-line px-2 py-1.5"
          />
          <button
            type="button"
            aria-label={`Remove option ${i + 1}`}
            onClick={() => onChange(values.filter((_, j) => j !== i))}
            className="rounded p-1.5 text-muted hover:text-red-700"
          >
            <Trash2 aria-hidden="true" className="h-4 w-4" />
          </button>
        </div>
      ))}
      <Button
        variant="ghost"
        className="px-3 py-1"
        onClick={() =>
          onChange([...values, { label: '', amount: '0', currency: 'usd', minDays: null, maxDays: null }])
        }
        disabled={values.length >= 5}
      >
        <Plus aria-hidden="true" className="h-4 w-4" /> Add shipping option
      </Button>
    </fieldset>
  );
}

/** Uploads a banner picture; the server re-encodes it and answers the URL the form then saves. */
function BannerUpload({ onUploaded }: { onUploaded: (url: string) => void }) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const upload = async (file: File) => {
    setBusy(true);
    try {
      const form = new FormData();
      form.append('file', file, file.name);
      const res = await fetch('/api/admin/settings/banner-image', {
        method: 'POST',
        body: form,
        credentials: 'same-origin',
      });
      const body = (await res.json().catch(() => ({}))) as { url?: string; message?: string };
      if (!res.ok || !body.url) throw new Error(body.message ?? 'Upload failed');
      onUploaded(body.url);
      toast.success('Banner image uploaded; save the settings to use it');
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Upload failed');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        Upload a banner image
      </label>
      <input
        id={id}
        type="file"
        accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
        disabled={busy}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) void upload(file);
          e.target.value = '';
        }}
        className="mt-1 block text-sm"
      />
    </div>
  );
}
