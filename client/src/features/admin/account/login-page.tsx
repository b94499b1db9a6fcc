import { type FormEvent, useState } from 'react';
import { Redirect } from 'wouter';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { paths } from '../../../lib/paths';
import { useAdminSession, useLogin } from './use-account';

export function LoginPage() {
  const session = useAdminSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const login = useLogin((message) => {
    setError(message);
    setPassword('');
  });

  if (session.isPending) return null;
  if (session.data) return <Redirect to={paths.adminDashboard()} replace />;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    login.mutate({ email, password });
  };

  return (
    <div className="mx-auto max-w-md px-4 py-16">
      <div className="rounded-2xl border border-stone-line bg-white/80 p-8 shadow-sm">
        <h1 className="font-serif text-3xl text-ink">Admin Login</h1>
        <p className="mt-2 text-sm text-muted">Sign in to manage products</p>
        <form className="mt-6 space-y-4" onSubmit={submit} noValidate={false}>
          <TextField
            label="Email"
            type="email"
            name="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <TextField
            label="Password"
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          {error ? (
            <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
              {error}
            </p>
          ) : null}
          <Button type="submit" className="w-full" disabled={login.isPending}>
            {login.isPending ? 'Signing in…' : 'Sign In'}
          </Button>
        </form>
      </div>
    </div>
  );
}
