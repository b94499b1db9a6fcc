import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import { paths } from '../../lib/paths';
import { useAdminSession } from './account/use-account';

/** Renders its children only for a signed-in admin; nothing at all until the server has answered. */
export function AdminGuard({ children }: { children: ReactNode }) {
  const session = useAdminSession();
  if (session.isPending) return null;
  if (!session.data) return <Redirect to={paths.admin()} replace />;
  return <>{children}</>;
}
