import { type SettingsInput, settingsInput } from '@shared/settings-input';
import { type FormEvent, useEffect, useState } from 'react';
import { ChipsInput } from '../../../components/admin/chips-input';
import { Tabs } from '../../../components/admin/tabs';
import { TextAreaField } from '../../../components/admin/text-area-field';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { useZodForm } from '../../../lib/use-zod-form';
import { BannerUpload } from './banner-upload';
import { PaymentMethodsPanel } from './payment-methods-form';
import { ReturnSettingsPanel } from './return-settings-form';
import { Credits, ShippingOptions } from './settings-lists';
import { useSaveSettings, useStoredSettings } from './use-settings';

type Values = SettingsInput;

/** The zones the browser knows, offered as suggestions (the server checks the name whatever is typed). */
function timeZones(): string[] {
  try {
    return ['UTC', ...Intl.supportedValuesOf('timeZone')];
  } catch {
    return ['UTC'];
  }
}

const SECTIONS = [
  { id: 'store', label: 'Store' },
  { id: 'payment-methods', label: 'Payment methods' },
  { id: 'returns', label: 'Returns' },
] as const;

/** The store's settings, its payment methods (decision 0038) and its returns (issue 43), each saved on its own. */
export function SettingsPanel() {
  const [active, setActive] = useState<(typeof SECTIONS)[number]['id']>('store');
  return (
    <Tabs
      label="Settings sections"
      tabs={SECTIONS}
      active={active}
      onSelect={setActive}
      panelClassName="pt-6"
      panel={(id) =>
        id === 'store' ? (
          <StoreSettings />
        ) : id === 'returns' ? (
          <ReturnSettingsPanel />
        ) : (
          <PaymentMethodsPanel />
        )
      }
    />
  );
}

function StoreSettings() {
  const settings = useStoredSettings();
  if (settings.isPending) return <div className="skeleton h-96 rounded" aria-hidden="true" />;
  if (settings.isError) return <p role="alert">{settings.error.message}</p>;
  return <SettingsForm initial={settings.data} />;
}

function SettingsForm({ initial }: { initial: Values }) {
  const form = useZodForm(settingsInput, initial);
  const { values, set, error, setValues } = form;
  const save = useSaveSettings();
  useEffect(() => setValues(initial), [initial, setValues]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await form.save((fields) => save.mutateAsync(fields));
  };

  return (
    <form
      onSubmit={(e) => void submit(e)}
      noValidate
      className="max-w-3xl space-y-6"
      aria-label="Store settings"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Store name"
          value={values.storeName}
          onChange={(e) => set('storeName', e.target.value)}
          error={error('storeName')}
        />
        <TextField
          label="Tagline"
          value={values.tagline}
          onChange={(e) => set('tagline', e.target.value)}
          error={error('tagline')}
        />
      </div>
      <TextAreaField
        label="About text"
        value={values.aboutText}
        onChange={(v) => set('aboutText', v)}
        error={error('aboutText')}
      />
      <TextAreaField
        label="Footer disclaimer"
        value={values.disclaimer}
        onChange={(v) => set('disclaimer', v)}
        error={error('disclaimer')}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Special order URL"
          type="url"
          value={values.specialOrderUrl}
          onChange={(e) => set('specialOrderUrl', e.target.value)}
          error={error('specialOrderUrl')}
        />
        <TextField
          label="Contact URL"
          type="url"
          value={values.contactUrl}
          onChange={(e) => set('contactUrl', e.target.value)}
          error={error('contactUrl')}
        />
      </div>
      <TextField
        label="Contact email (shown in order emails and used as Reply-To)"
        type="email"
        autoComplete="email"
        value={values.contactEmail ?? ''}
        onChange={(e) => set('contactEmail', e.target.value)}
        error={error('contactEmail')}
      />
      <TextField
        label="Low-stock threshold"
        type="number"
        inputMode="numeric"
        min={0}
        max={1000}
        hint="Sizes with this many or fewer left are listed on the dashboard."
        value={values.lowStockThreshold ?? ''}
        onChange={(e) => set('lowStockThreshold', e.target.value === '' ? undefined : Number(e.target.value))}
        error={error('lowStockThreshold')}
        className="max-w-xs"
      />
      <TextField
        label="Time zone"
        list="settings-time-zones"
        hint="Sales and codes start and end at times in this zone, such as Asia/Karachi."
        value={values.timeZone ?? ''}
        onChange={(e) => set('timeZone', e.target.value)}
        error={error('timeZone')}
        className="max-w-md"
      />
      <datalist id="settings-time-zones">
        {timeZones().map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          checked={values.stripePromotionCodes ?? false}
          onChange={(e) => set('stripePromotionCodes', e.target.checked)}
          className="mt-0.5 h-4 w-4 accent-maroon"
        />
        <span>
          Let shoppers enter Stripe Dashboard promotion codes on Stripe’s payment page (never together with a
          store code; what Stripe takes off is recorded on the order)
        </span>
      </label>
      <fieldset className="space-y-3 rounded-xl border border-stone-line p-4">
        <legend className="px-1 text-sm font-medium">Banner</legend>
        <TextField
          label="Banner title"
          value={values.bannerTitle}
          onChange={(e) => set('bannerTitle', e.target.value)}
          error={error('bannerTitle')}
        />
        <TextField
          label="Banner description"
          value={values.bannerDescription}
          onChange={(e) => set('bannerDescription', e.target.value)}
          error={error('bannerDescription')}
        />
        <TextField
          label="Banner image URL"
          hint="A full https URL, or a path of an uploaded file such as /media/uploads/…"
          value={values.bannerImageUrl}
          onChange={(e) => set('bannerImageUrl', e.target.value)}
          error={error('bannerImageUrl')}
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
        error={error('shippingCountries')}
      />
      <ShippingOptions
        values={values.shippingOptions}
        onChange={(v) => set('shippingOptions', v)}
        error={error}
      />
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save settings'}
      </Button>
    </form>
  );
}
