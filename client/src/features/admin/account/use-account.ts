import { useLocation } from 'wouter';
import { paths } from '../../../lib/paths';
import { toast } from '../../../lib/toast';
import { trpc } from '../../../lib/trpc';

/** The admin's own account: the session, signing in and out, the profile and the password. */

/**
 * The session as the server sees it: signed in, half signed in (a two-factor code owed, or enrolment
 * required: `stage`), or null when signed out.
 */
export function useAdminSession() {
  return trpc.auth.me.useQuery(undefined, { staleTime: 60_000, refetchOnWindowFocus: true });
}

/** The signed-in admin, or null (signed out, or a sign-in still owing its second step). */
export function useSignedInAdmin() {
  return trpc.auth.me.useQuery(undefined, {
    staleTime: 60_000,
    refetchOnWindowFocus: true,
    select: (me) => (me?.stage === 'signed-in' ? me : null),
  });
}

export function useLogout() {
  const utils = trpc.useUtils();
  const [, navigate] = useLocation();
  return trpc.auth.logout.useMutation({
    onSuccess() {
      utils.auth.me.setData(undefined, null);
      utils.invalidate();
      toast.success('Logged out successfully');
      navigate(paths.admin(), { replace: true });
    },
    onError() {
      toast.error('Could not log out. Please try again.');
    },
  });
}

/** Signs in; on a refusal the page shows the message (the server's own when it is a throttle). */
export function useLogin(onRefused: (message: string) => void) {
  const utils = trpc.useUtils();
  const [, navigate] = useLocation();
  return trpc.auth.login.useMutation({
    async onSuccess(result) {
      await utils.auth.me.invalidate();
      // A code or enrolment still owed: the sign-in page shows that step from the refreshed session.
      if (result.next !== null) return;
      toast.success('Login successful');
      navigate(paths.adminDashboard(), { replace: true });
    },
    onError(err) {
      const message = err.data?.code === 'TOO_MANY_REQUESTS' ? err.message : 'Invalid credentials';
      onRefused(message);
      toast.error(message);
    },
  });
}

export function useProfile() {
  return trpc.admin.account.profile.useQuery();
}

export function useChangePassword(handlers: { onDone: () => void; onRefused: (message: string) => void }) {
  return trpc.admin.account.changePassword.useMutation({
    onSuccess() {
      handlers.onDone();
      toast.success('Password changed. Other sessions have been signed out.');
    },
    onError(err) {
      handlers.onRefused(err.message);
    },
  });
}

export function useSignOutEverywhere() {
  const utils = trpc.useUtils();
  const [, navigate] = useLocation();
  return trpc.admin.account.signOutEverywhere.useMutation({
    onSuccess() {
      utils.auth.me.setData(undefined, null);
      toast.success('Signed out on every device');
      navigate(paths.admin(), { replace: true });
    },
    onError() {
      toast.error('Could not sign out everywhere. Please try again.');
    },
  });
}

/** This account's live sessions (the profile page's list). */
export function useOwnSessions() {
  return trpc.admin.account.sessions.useQuery();
}

/** Ends one session; ending this browser's own signs it out here too. */
export function useEndSession() {
  const utils = trpc.useUtils();
  const [, navigate] = useLocation();
  return trpc.admin.account.endSession.useMutation({
    onSuccess(result) {
      if (result.current) {
        utils.auth.me.setData(undefined, null);
        toast.success('Signed out');
        navigate(paths.admin(), { replace: true });
        return;
      }
      toast.success('That session is signed out');
      void utils.admin.account.sessions.invalidate();
    },
    onError(err) {
      toast.error(err.data?.code === 'NOT_FOUND' ? err.message : 'Could not sign that session out.');
      void utils.admin.account.sessions.invalidate();
    },
  });
}
