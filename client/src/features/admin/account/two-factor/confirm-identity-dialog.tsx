import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Button } from '../../../../components/ui/button';
import { Modal } from '../../../../components/ui/modal';
import { TextField } from '../../../../components/ui/text-field';
import { registerFreshProofAsker } from '../../../../lib/fresh-proof';
import { useSignedInAdmin } from '../use-account';
import { SecondFactorField } from './code-field';
import { useConfirmIdentity } from './use-two-factor';

/**
 * "Is it still you?" (decision 0032): opened when the server refuses an action for want of a confirmation
 * from the last 10 minutes; the action goes again once this is confirmed. A code with two-factor on, the
 * password without. Mounted once in the admin layout.
 */
export function ConfirmIdentityDialog() {
  const [open, setOpen] = useState(false);
  const settle = useRef<((confirmed: boolean) => void) | null>(null);

  useEffect(() => {
    const unregister = registerFreshProofAsker(
      () =>
        new Promise<boolean>((resolve) => {
          settle.current = resolve;
          setOpen(true);
        }),
    );
    return () => {
      unregister();
      // Leaving the admin with the dialog open: the action waiting for it fails instead of waiting for ever.
      settle.current?.(false);
      settle.current = null;
    };
  }, []);

  const finish = (confirmed: boolean) => {
    settle.current?.(confirmed);
    settle.current = null;
    setOpen(false);
  };

  return open ? <ConfirmForm onConfirmed={() => finish(true)} onCancel={() => finish(false)} /> : null;
}

function ConfirmForm(props: { onConfirmed: () => void; onCancel: () => void }) {
  const withCode = useSignedInAdmin().data?.twoFactor ?? false;
  // A new form if the account's two-factor changes meanwhile: what was typed for one never shows in the other.
  return <ProofForm key={String(withCode)} withCode={withCode} {...props} />;
}

function ProofForm({
  withCode,
  onConfirmed,
  onCancel,
}: {
  withCode: boolean;
  onConfirmed: () => void;
  onCancel: () => void;
}) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const focusField = () => form.current?.querySelector('input')?.focus();
  const confirm = useConfirmIdentity((message) => {
    setError(
      message === 'Invalid input'
        ? withCode
          ? 'Enter the code from your app'
          : 'Enter your password'
        : message,
    );
    setValue('');
    // Back to the field, whose description now says what was wrong.
    focusField();
  });
  // After the dialog's own opening (showModal focuses its first control, the Close button): the field.
  useEffect(() => {
    form.current?.querySelector('input')?.focus();
  }, []);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    confirm.mutate(withCode ? { code: value } : { password: value }, { onSuccess: onConfirmed });
  };
  return (
    <Modal title="Confirm it is you" onClose={onCancel}>
      <form ref={form} className="space-y-4 px-6 py-5" onSubmit={submit}>
        <p className="text-sm">
          {withCode
            ? 'This action needs a fresh code. Enter the code from your authenticator app to go on.'
            : 'This action needs your password again. Enter it to go on.'}{' '}
          It counts for 10 minutes.
        </p>
        {withCode ? (
          <SecondFactorField value={value} onValue={setValue} error={error} />
        ) : (
          <TextField
            label="Password"
            type="password"
            autoComplete="current-password"
            required
            value={value}
            error={error}
            onChange={(e) => setValue(e.target.value)}
          />
        )}
        <div className="flex gap-2">
          <Button type="submit" disabled={confirm.isPending}>
            {confirm.isPending ? 'Checking…' : 'Confirm'}
          </Button>
          <Button type="button" variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
    </Modal>
  );
}
