import { OWNER_ONLY_MESSAGE } from '@shared/auth';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { paths } from '../../lib/paths';
import { useSignedInAdmin } from './account/use-account';

/**
 * Whether the signed-in admin is the owner: the controls of owner-only procedures (decision 0030) are shown
 * to the owner alone. False while the session loads, so staff never see one flash.
 */
export function useIsOwner(): boolean {
  return useSignedInAdmin().data?.role === 'owner';
}

/**
 * A screen for the owner only (decision 0030): staff who reach it by its address are told so, instead of
 * a screen whose every request the server refuses.
 */
export function OwnerOnly({ title, children }: { title: string; children: ReactNode }) {
  const session = useSignedInAdmin().data;
  if (session?.role !== 'staff') return <>{children}</>;
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
      <h1 className="font-serif text-3xl">{title}</h1>
      <p className="mt-4" role="status">
        {OWNER_ONLY_MESSAGE}
      </p>
      <p className="mt-4">
        <Link href={paths.adminDashboard()} className="text-maroon hover:underline">
          Back to the dashboard
        </Link>
      </p>
    </div>
  );
}
