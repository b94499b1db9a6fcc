import { type FormEvent, useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { paths } from '../../../lib/paths';
import { toast } from '../../../lib/toast';
import { trpc } from '../../../lib/trpc';

/**
 * An invitation link (/admin/invite#token): shows who is invited and as what, and makes the account with a
 * chosen password. The token is read from the fragment and sent only in POST bodies.
 */
export function InvitePage() {
  const [token] = useState(() => window.location.hash.slice(1));
  // The token is read: out of the address bar and the history at once.
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(null, '', window.location.pathname);
  }, []);
  const open = trpc.auth.openInvite.useMutation();
  const utils = trpc.useUtils();
  const [, navigate] = useLocation();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string | null>(null);
  const accept = trpc.auth.acceptInvite.useMutation({
    async onSuccess(result) {
      // The link is spent: keep it out of the history and the address bar.
      window.history.replaceState(null, '', paths.admin());
      await utils.auth.me.invalidate();
      toast.success('Welcome: your account is ready');
      navigate(result.next === null ? paths.adminDashboard() : paths.admin(), { replace: true });
    },
    onError: (err) =>
      setError(err.message === 'Invalid input' ? 'This is not an invitation link' : err.message),
  });
  const { mutate } = open;
  useEffect(() => {
    if (token) mutate({ token });
  }, [token, mutate]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (password !== repeat) {
      setError('The passwords do not match');
      return;
    }
    accept.mutate({ token, password });
  };

  return (
    <div className="mx-auto max-w-md px-4 py-16">
      <div className="rounded-2xl border border-stone-line bg-white/80 p-8 shadow-sm">
        <h1 className="font-serif text-3xl text-ink">Join the admin</h1>
        {!token || open.isError ? (
          <p role="alert" className="mt-4 text-sm text-red-800">
            {!token || open.error?.message === 'Invalid input'
              ? 'This is not an invitation link. Ask the shop owner for a new one.'
              : open.error?.message}
          </p>
        ) : !open.data ? (
          <p className="mt-4 text-sm text-muted" role="status">
            Checking the invitation…
          </p>
        ) : (
          <>
            <p className="mt-2 text-sm text-muted">
              {open.data.storeName} invites <span className="text-ink">{open.data.email}</span>{' '}
              {open.data.role === 'owner' ? 'as an owner' : 'as staff'}. Choose a password for your account.
            </p>
            <form className="mt-6 space-y-4" onSubmit={submit}>
              <input
                type="email"
                name="email"
                autoComplete="username"
                value={open.data.email}
                readOnly
                hidden
              />
              <TextField
                label="Password"
                type="password"
                autoComplete="new-password"
                required
                minLength={12}
                hint="At least 12 characters."
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
              <TextField
                label="Repeat password"
                type="password"
                autoComplete="new-password"
                required
                value={repeat}
                onChange={(e) => setRepeat(e.target.value)}
              />
              {error ? (
                <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
                  {error}
                </p>
              ) : null}
              <Button type="submit" className="w-full" disabled={accept.isPending}>
                {accept.isPending ? 'Creating your account…' : 'Create account'}
              </Button>
            </form>
          </>
        )}
      </div>
    </div>
  );
}
