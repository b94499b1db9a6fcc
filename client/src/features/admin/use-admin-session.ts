import { useLocation } from 'wouter';
import { paths } from '../../lib/paths';
import { toast } from '../../lib/toast';
import { trpc } from '../../lib/trpc';

/** The signed-in admin as the server sees the session (null when signed out). */
export function useAdminSession() {
  return trpc.auth.me.useQuery(undefined, { staleTime: 60_000, refetchOnWindowFocus: true });
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
