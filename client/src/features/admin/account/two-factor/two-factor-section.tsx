import { type FormEvent, useRef, useState } from 'react';
import { Button } from '../../../../components/ui/button';
import { TextField } from '../../../../components/ui/text-field';
import { trpc } from '../../../../lib/trpc';
import { formatLoginTime } from '../session-time';
import { SecondFactorField } from './code-field';
import { TwoFactorEnrolment } from './enrolment';
import { RecoveryCodes } from './recovery-codes';
import { useDisableTwoFactor, useNewRecoveryCodes, useTwoFactorStatus } from './use-two-factor';

/** The profile page's two-factor section: turn it on, see how many recovery codes are left, renew, turn off. */
export function TwoFactorSection() {
  const status = useTwoFactorStatus();
  const renew = useNewRecoveryCodes();
  const [disabling, setDisabling] = useState(false);
  const utils = trpc.useUtils();
  // Where focus goes when the control that had it goes away (set up done, turned off).
  const heading = useRef<HTMLHeadingElement>(null);

  return (
    <section
      className="mt-10 rounded-2xl border border-stone-line bg-white/70 p-6"
      aria-labelledby="tfa-heading"
    >
      <h2 id="tfa-heading" className="font-serif text-xl" ref={heading} tabIndex={-1}>
        Two-factor sign-in
      </h2>
      <div className="mt-4">
        {status.isPending ? null : !status.data?.enabled ? (
          <TwoFactorEnrolment
            onDone={() => {
              void utils.admin.account.twoFactor.status.invalidate();
              // The session now knows the account has two-factor: "Confirm it is you" asks for a code.
              void utils.auth.me.invalidate();
              heading.current?.focus();
            }}
          />
        ) : renew.data ? (
          <RecoveryCodes codes={renew.data.recoveryCodes} onDone={() => renew.reset()} />
        ) : (
          <div className="space-y-4">
            <p className="text-sm" data-testid="two-factor-status">
              On since {formatLoginTime(status.data.enabledAt)}. {status.data.recoveryCodesLeft} of 10
              recovery codes left.
            </p>
            <div className="flex flex-wrap gap-2">
              <Button
                type="button"
                variant="secondary"
                onClick={() => renew.mutate()}
                disabled={renew.isPending}
              >
                New recovery codes
              </Button>
              <Button
                type="button"
                variant="ghost"
                onClick={() => setDisabling(true)}
                aria-expanded={disabling}
              >
                Turn off…
              </Button>
            </div>
            {disabling ? (
              <DisableForm
                onDone={() => {
                  setDisabling(false);
                  heading.current?.focus();
                }}
              />
            ) : null}
          </div>
        )}
      </div>
    </section>
  );
}

function DisableForm({ onDone }: { onDone: () => void }) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const disable = useDisableTwoFactor((message) => {
    setError(message === 'Invalid input' ? 'Enter your password and a code' : message);
    setCode('');
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    disable.mutate({ password, code }, { onSuccess: onDone });
  };
  return (
    <form className="max-w-sm space-y-3 border-t border-stone-line pt-4" onSubmit={submit}>
      <p className="text-sm">Turning it off takes your password and a code.</p>
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <SecondFactorField value={code} onValue={setCode} />
      {error ? (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" disabled={disable.isPending}>
          Turn off two-factor sign-in
        </Button>
        <Button type="button" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
