import type { AdminRole } from '@shared/auth';
import { DataTable } from '../../../components/admin/data-table';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../lib/toast';
import { trpc } from '../../../lib/trpc';
import { formatLoginTime } from '../account/session-time';

const ROLE_LABEL: Record<AdminRole, string> = { owner: 'Owner', staff: 'Staff' };

/**
 * The Team tab (owner only, decision 0030): every admin account with its role, which the owner can change
 * for others, and a button to remove an account. New accounts come from `npm run admin -- create`.
 */
export function TeamPanel() {
  const utils = trpc.useUtils();
  const team = trpc.admin.team.list.useQuery();
  const done = (message: string) => ({
    onSuccess() {
      toast.success(message);
      void utils.admin.team.list.invalidate();
    },
    onError(err: { message: string }) {
      toast.error(err.message);
    },
  });
  const setRole = trpc.admin.team.setRole.useMutation(done('Role changed'));
  const remove = trpc.admin.team.remove.useMutation(done('Account removed'));
  type Member = NonNullable<typeof team.data>[number];

  return (
    <div>
      <h2 className="font-serif text-2xl">Team</h2>
      <p className="mt-1 text-sm text-muted">
        Owners may do everything; staff work on products, media and orders. Add an account with{' '}
        <code>npm run admin -- create EMAIL --role staff</code>.
      </p>
      {team.isError ? (
        <p role="alert" className="mt-4 text-sm text-red-800">
          {team.error.message}
        </p>
      ) : (
        <div className="mt-4">
          <DataTable<Member>
            label="Team"
            testId="team-table"
            rowTestId="team-row"
            rows={team.data}
            rowKey={(a) => a.id}
            empty="No accounts."
            columns={[
              {
                id: 'email',
                header: 'Email',
                cellClassName: 'break-all',
                cell: (a) => (
                  <>
                    {a.email}
                    {a.you ? <span className="ml-2 text-muted">(you)</span> : null}
                  </>
                ),
              },
              {
                id: 'role',
                header: 'Role',
                cell: (a) =>
                  a.you ? (
                    ROLE_LABEL[a.role]
                  ) : (
                    <select
                      aria-label={`Role of ${a.email}`}
                      value={a.role}
                      disabled={setRole.isPending}
                      onChange={(e) => setRole.mutate({ id: a.id, role: e.target.value as AdminRole })}
                      className="rounded-lg border border-stone-line bg-white px-2 py-1"
                    >
                      <option value="owner">{ROLE_LABEL.owner}</option>
                      <option value="staff">{ROLE_LABEL.staff}</option>
                    </select>
                  ),
              },
              { id: 'last', header: 'Last sign-in', cell: (a) => formatLoginTime(a.lastLoginAt) },
              {
                id: 'remove',
                header: <span className="sr-only">Remove</span>,
                cell: (a) =>
                  a.you ? null : (
                    <Button
                      variant="secondary"
                      disabled={remove.isPending}
                      aria-label={`Remove ${a.email}`}
                      onClick={() => {
                        if (window.confirm(`Remove ${a.email}? Their sessions end at once.`))
                          remove.mutate({ id: a.id });
                      }}
                    >
                      Remove
                    </Button>
                  ),
              },
            ]}
          />
        </div>
      )}
    </div>
  );
}
