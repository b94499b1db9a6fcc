import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { Redirect, useLocation } from 'wouter';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { paths } from '../../../lib/paths';
import { toast } from '../../../lib/toast';
import { trpc } from '../../../lib/trpc';
import { SecondFactorField } from './two-factor/code-field';
import { TwoFactorEnrolment } from './two-factor/enrolment';
import { useVerifyCode } from './two-factor/use-two-factor';
import { useAdminSession, useLogin, useLogout } from './use-account';

/**
 * Signing in: the password, then what the session still owes (decision 0032): a code from the
 * authenticator app, or, where the shop requires two-factor, setting it up. A reload keeps the step.
 */
export function LoginPage() {
  const session = useAdminSession();
  const me = session.data;
  // Once enrolment has begun here it stays on screen until its recovery codes are acknowledged, even after
  // the session has become signed in (a refetch of the session must not take the codes away).
  const [enrolling, setEnrolling] = useState<string | null>(null);
  useEffect(() => {
    if (me?.stage === 'enrol') setEnrolling(me.email);
    else if (!me) setEnrolling(null);
  }, [me]);
  if (session.isPending) return null;
  if (enrolling !== null || me?.stage === 'enrol') {
    return (
      <Shell>
        <EnrolStep email={enrolling ?? me?.email ?? ''} />
      </Shell>
    );
  }
  if (me?.stage === 'signed-in') return <Redirect to={paths.adminDashboard()} replace />;
  return <Shell>{me?.stage === 'code' ? <CodeStep email={me.email} /> : <PasswordStep />}</Shell>;
}

function Shell({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto max-w-md px-4 py-16">
      <div className="rounded-2xl border border-stone-line bg-white/80 p-8 shadow-sm">{children}</div>
    </div>
  );
}

function PasswordStep() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const login = useLogin((message) => {
    setError(message);
    setPassword('');
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    login.mutate({ email, password });
  };
  return (
    <>
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
        <ErrorLine message={error} />
        <Button type="submit" className="w-full" disabled={login.isPending}>
          {login.isPending ? 'Signing in…' : 'Sign In'}
        </Button>
      </form>
    </>
  );
}

function CodeStep({ email }: { email: string }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [, navigate] = useLocation();
  const verify = useVerifyCode((message) => {
    setError(
      message === 'Invalid input' ? 'Enter the 6-digit code from your app, or a recovery code' : message,
    );
    setCode('');
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    verify.mutate(
      { code },
      {
        onSuccess() {
          toast.success('Login successful');
          navigate(paths.adminDashboard(), { replace: true });
        },
      },
    );
  };
  return (
    <>
      <h1 className="font-serif text-3xl text-ink">Two-factor sign-in</h1>
      <p className="mt-2 text-sm text-muted">
        Enter the code from your authenticator app for <span className="text-ink">{email}</span>.
      </p>
      <form className="mt-6 space-y-4" onSubmit={submit}>
        <SecondFactorField value={code} onValue={setCode} autoFocus />
        <ErrorLine message={error} />
        <Button type="submit" className="w-full" disabled={verify.isPending}>
          {verify.isPending ? 'Checking…' : 'Continue'}
        </Button>
      </form>
      <StartAgain />
    </>
  );
}

function EnrolStep({ email }: { email: string }) {
  const utils = trpc.useUtils();
  const [, navigate] = useLocation();
  return (
    <>
      <h1 className="font-serif text-3xl text-ink">Set up two-factor sign-in</h1>
      <p className="mt-2 text-sm text-muted">
        This shop requires two-factor sign-in for every admin. Set it up for{' '}
        <span className="text-ink">{email}</span> to go on.
      </p>
      <div className="mt-6">
        <TwoFactorEnrolment
          onDone={() => {
            void utils.auth.me.invalidate().then(() => navigate(paths.adminDashboard(), { replace: true }));
          }}
        />
      </div>
      <StartAgain />
    </>
  );
}

function StartAgain() {
  const logout = useLogout();
  return (
    <p className="mt-6 text-sm">
      <button type="button" className="text-maroon hover:underline" onClick={() => logout.mutate()}>
        Sign in as someone else
      </button>
    </p>
  );
}

function ErrorLine({ message }: { message: string | null }) {
  return message ? (
    <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
      {message}
    </p>
  ) : null;
}
