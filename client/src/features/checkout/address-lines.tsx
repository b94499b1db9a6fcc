import { TextField } from '../../components/ui/text-field';

export type AddressLineValues = { line1: string; line2: string; city: string; postalCode: string };

/**
 * The lines of a shipping address, as the demo payment page and the store's own order form both ask for
 * them (each adds its country its own way). Errors come keyed as the server's schema names them
 * (`address.line1`, …), so a refusal lands beside its field.
 */
export function AddressLines({
  values,
  onChange,
  error,
  postalCodeRequired,
}: {
  values: AddressLineValues;
  onChange: (key: keyof AddressLineValues, value: string) => void;
  error: (path: string) => string | undefined;
  /** Pakistan's couriers deliver by city and address: the store's own form leaves the code optional. */
  postalCodeRequired: boolean;
}) {
  return (
    <>
      <TextField
        label="Address line 1"
        autoComplete="address-line1"
        value={values.line1}
        onChange={(e) => onChange('line1', e.target.value)}
        error={error('address.line1')}
        required
      />
      <TextField
        label="Address line 2 (optional)"
        autoComplete="address-line2"
        value={values.line2}
        onChange={(e) => onChange('line2', e.target.value)}
        error={error('address.line2')}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="City"
          autoComplete="address-level2"
          value={values.city}
          onChange={(e) => onChange('city', e.target.value)}
          error={error('address.city')}
          required
        />
        <TextField
          label={postalCodeRequired ? 'Postal code' : 'Postal code (optional)'}
          autoComplete="postal-code"
          value={values.postalCode}
          onChange={(e) => onChange('postalCode', e.target.value)}
          error={error('address.postalCode')}
          required={postalCodeRequired}
        />
      </div>
    </>
  );
}
