import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Button } from '../../../../components/ui/button';
import { TextField } from '../../../../components/ui/text-field';
import { QrCode } from './qr-code';
import { RecoveryCodes } from './recovery-codes';
import { useBeginEnrolment, useConfirmEnrolment } from './use-two-factor';

/** The manual key in groups of four, as authenticator apps show it. */
function grouped(key: string): string {
  return key.replace(/(.{4})/g, '$1 ').trim();
}

/**
 * Turning two-factor on: a new key as a QR code and as text, confirmed with the app's first code; then the
 * ten recovery codes, shown once. `onDone` after the codes are acknowledged.
 */
export function TwoFactorEnrolment({ onDone }: { onDone: () => void }) {
  const begin = useBeginEnrolment();
  const confirm = useConfirmEnrolment();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const steps = useRef<HTMLOListElement>(null);
  const form = useRef<HTMLFormElement>(null);
  // The key replaces the button that asked for it: focus moves to the instructions.
  const shown = begin.data !== undefined;
  useEffect(() => {
    if (shown) steps.current?.focus();
  }, [shown]);

  if (confirm.data) return <RecoveryCodes codes={confirm.data.recoveryCodes} onDone={onDone} />;

  if (!begin.data) {
    return (
      <div className="space-y-3">
        <p className="text-sm">
          Sign in with a code from an authenticator app on your phone (such as Google Authenticator, Microsoft
          Authenticator, 1Password or Aegis) as well as your password, so a leaked password alone is not
          enough.
        </p>
        {begin.error ? (
          <p role="alert" className="text-sm text-red-800">
            {begin.error.message}
          </p>
        ) : null}
        <Button type="button" onClick={() => begin.mutate()} disabled={begin.isPending}>
          {begin.isPending ? 'Preparing…' : 'Set up two-factor sign-in'}
        </Button>
      </div>
    );
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    confirm.mutate(
      { code },
      {
        onError: (err) => {
          setError(err.message === 'Invalid input' ? 'Enter the 6-digit code from your app' : err.message);
          setCode('');
          form.current?.querySelector('input')?.focus();
        },
      },
    );
  };

  return (
    <div className="space-y-4">
      <ol className="list-decimal space-y-1 pl-5 text-sm" ref={steps} tabIndex={-1}>
        <li>Open your authenticator app and add an account.</li>
        <li>Scan this QR code, or type the key below.</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <div className="flex flex-wrap items-center gap-6">
        <QrCode value={begin.data.uri} label="QR code for your authenticator app" />
        <dl>
          <dt className="text-sm text-muted">Key (to type instead of scanning)</dt>
          <dd className="font-mono text-base" data-testid="manual-key">
            {grouped(begin.data.key)}
          </dd>
        </dl>
      </div>
      <form className="max-w-xs space-y-3" onSubmit={submit} ref={form}>
        <TextField
          label="Code from the app"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          required
          value={code}
          error={error}
          onChange={(e) => setCode(e.target.value.replace(/\s/g, ''))}
        />
        <Button type="submit" disabled={confirm.isPending}>
          {confirm.isPending ? 'Checking…' : 'Turn on'}
        </Button>
      </form>
    </div>
  );
}
