import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import { paths } from '../../lib/paths';
import { useSignedInAdmin } from './account/use-account';

/** Renders its children only for a signed-in admin; nothing at all until the server has answered. */
export function AdminGuard({ children }: { children: ReactNode }) {
  const session = useSignedInAdmin();
  if (session.isPending) return null;
  // Signed out, or a sign-in still owing its code or enrolment: the sign-in page takes it from there.
  if (!session.data) return <Redirect to={paths.admin()} replace />;
  return <>{children}</>;
}
