import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { OwnSessions } from './own-sessions';
import { formatLoginTime } from './session-time';
import { TwoFactorSection } from './two-factor/two-factor-section';
import { useChangePassword, useProfile, useSignOutEverywhere } from './use-account';

export function ProfilePage() {
  const profile = useProfile();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  const changePassword = useChangePassword({
    onDone() {
      setCurrent('');
      setNext('');
      setRepeat('');
    },
    onRefused: setFormError,
  });
  const signOutEverywhere = useSignOutEverywhere();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    if (next !== repeat) {
      setFormError('The new passwords do not match');
      return;
    }
    changePassword.mutate({ currentPassword: current, newPassword: next });
  };

  return (
    <div className="mx-auto max-w-2xl px-4 py-8 sm:px-6">
      <h1 className="font-serif text-3xl">User Profile</h1>
      {profile.isPending ? (
        <div className="mt-6 space-y-2" aria-hidden="true">
          <div className="skeleton h-4 w-64 rounded" />
          <div className="skeleton h-4 w-48 rounded" />
        </div>
      ) : profile.data ? (
        <dl className="mt-6 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
          <dt className="text-muted">Email</dt>
          <dd data-testid="profile-email">{profile.data.email}</dd>
          <dt className="text-muted">Last sign-in</dt>
          <dd>{formatLoginTime(profile.data.lastLoginAt)}</dd>
          <dt className="text-muted">Account created</dt>
          <dd>{formatLoginTime(profile.data.createdAt)}</dd>
        </dl>
      ) : null}

      <section
        className="mt-10 rounded-2xl border border-stone-line bg-white/70 p-6"
        aria-labelledby="pw-heading"
      >
        <h2 id="pw-heading" className="font-serif text-xl">
          Change password
        </h2>
        <form className="mt-4 space-y-4" onSubmit={submit}>
          <TextField
            label="Current password"
            type="password"
            autoComplete="current-password"
            required
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
          />
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            required
            minLength={12}
            hint="At least 12 characters. Changing it signs out your other sessions."
            value={next}
            onChange={(e) => setNext(e.target.value)}
          />
          <TextField
            label="Repeat new password"
            type="password"
            autoComplete="new-password"
            required
            value={repeat}
            onChange={(e) => setRepeat(e.target.value)}
          />
          {formError ? (
            <p role="alert" className="text-sm text-red-700">
              {formError}
            </p>
          ) : null}
          <Button type="submit" disabled={changePassword.isPending}>
            {changePassword.isPending ? 'Saving…' : 'Change password'}
          </Button>
        </form>
      </section>

      <TwoFactorSection />
      <OwnSessions />

      <section
        className="mt-8 rounded-2xl border border-red-200 bg-red-50/60 p-6"
        aria-labelledby="everywhere-heading"
      >
        <h2 id="everywhere-heading" className="font-serif text-xl">
          Sign out everywhere
        </h2>
        <p className="mt-2 text-sm text-muted">
          Ends every session of this account, on every device, including this one.
        </p>
        <Button
          variant="secondary"
          className="mt-4"
          disabled={signOutEverywhere.isPending}
          onClick={() => {
            if (window.confirm('Sign out of every device, including this one?')) signOutEverywhere.mutate();
          }}
        >
          Sign out everywhere
        </Button>
      </section>
    </div>
  );
}
