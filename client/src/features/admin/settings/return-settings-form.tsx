import {
  RETURN_REASON_LABEL,
  RETURN_REASONS,
  RETURN_SETTING_LIMITS,
  type ReturnReasonName,
  type ReturnSettings,
} from '@shared/returns';
import { type FormEvent, useEffect, useId, useRef } from 'react';
import { ChipsInput } from '../../../components/admin/chips-input';
import { TextAreaField } from '../../../components/admin/text-area-field';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../lib/toast';
import { trpc } from '../../../lib/trpc';
import { useFocusFirstInvalid } from '../../../lib/use-focus-first-invalid';
import { useZodForm } from '../../../lib/use-zod-form';
import { WholeNumberField } from './payment-method-fields';
import { returnSettingsCheck } from './return-settings-check';

const { maxWindowDays, maxInstructions } = RETURN_SETTING_LIMITS;

function useReturnSettings() {
  return trpc.admin.settings.returns.get.useQuery(undefined, { gcTime: 0 });
}

function useSaveReturnSettings() {
  const utils = trpc.useUtils();
  return trpc.admin.settings.returns.update.useMutation({
    onSuccess() {
      toast.success('Return settings saved');
      void utils.admin.settings.returns.get.invalidate();
    },
    onError(err) {
      toast.error(
        err.data?.code === 'BAD_REQUEST'
          ? 'Please correct the highlighted fields.'
          : `Failed to save return settings: ${err.message}`,
      );
    },
  });
}

/** Settings → Returns (issue 43): the window, which reasons may be refunded, postage, instructions, final sale. */
export function ReturnSettingsPanel() {
  const settings = useReturnSettings();
  if (settings.isPending) return <div className="skeleton h-96 rounded" aria-hidden="true" />;
  if (settings.isError) return <p role="alert">{settings.error.message}</p>;
  return <ReturnSettingsForm initial={settings.data} />;
}

function ReturnSettingsForm({ initial }: { initial: ReturnSettings }) {
  const form = useZodForm(returnSettingsCheck, initial);
  const { values, set, error, setValues } = form;
  const save = useSaveReturnSettings();
  const ref = useRef<HTMLFormElement>(null);
  const focusFirstError = useFocusFirstInvalid(ref);
  const id = useId();
  // The saved settings come back normalised (tags lower-cased, reasons in their order): shown so.
  useEffect(() => setValues(initial), [initial, setValues]);

  const toggleReason = (reason: ReturnReasonName, on: boolean) =>
    set(
      'refundReasons',
      RETURN_REASONS.filter((r) => (r === reason ? on : values.refundReasons.includes(r))),
    );

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const result = await form.save((v) => save.mutateAsync(v));
    if (result !== 'saved') focusFirstError();
  };

  return (
    <form
      ref={ref}
      onSubmit={(e) => void submit(e)}
      noValidate
      className="max-w-3xl space-y-6"
      aria-label="Returns"
    >
      <WholeNumberField
        label="Return window (days)"
        hint="Days after delivery (or after shipping, when delivery is not recorded) a shopper may ask for a return online. 0 turns online returns off."
        min={0}
        max={maxWindowDays}
        value={values.windowDays}
        onChange={(windowDays) => set('windowDays', windowDays)}
        error={error('windowDays')}
      />
      <fieldset className="space-y-2 rounded-xl border border-stone-line p-4">
        <legend className="px-1 text-sm font-medium">Reasons that may be refunded</legend>
        <p className="text-xs text-muted">The other reasons offer an exchange only.</p>
        {RETURN_REASONS.map((reason) => (
          <label key={reason} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={values.refundReasons.includes(reason)}
              onChange={(e) => toggleReason(reason, e.target.checked)}
              className="h-4 w-4 accent-maroon"
            />
            {RETURN_REASON_LABEL[reason]}
          </label>
        ))}
      </fieldset>
      <fieldset className="space-y-2 rounded-xl border border-stone-line p-4">
        <legend className="px-1 text-sm font-medium">Return postage is paid by</legend>
        {(
          [
            ['shopper', 'The shopper'],
            ['shop', 'The shop'],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name={`${id}-postage`}
              value={value}
              checked={values.postagePaidBy === value}
              onChange={() => set('postagePaidBy', value)}
              className="h-4 w-4 accent-maroon"
            />
            {label}
          </label>
        ))}
      </fieldset>
      <TextAreaField
        label={`Instructions shown to the shopper: return address, how to send (up to ${maxInstructions} characters)`}
        value={values.instructions}
        onChange={(instructions) => set('instructions', instructions)}
        error={error('instructions')}
        rows={5}
      />
      <div>
        <ChipsInput
          label="Final-sale tags"
          values={values.finalSaleTags}
          onChange={(tags) => set('finalSaleTags', tags)}
          placeholder="A product tag, then Enter"
          error={error('finalSaleTags')}
        />
        <p className="mt-1 text-xs text-muted">Products with one of these tags cannot be returned online.</p>
      </div>
      {form.hasErrors ? (
        <p role="alert" className="text-sm text-red-700">
          Please correct the highlighted fields.
        </p>
      ) : null}
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save return settings'}
      </Button>
    </form>
  );
}
