import type { AdminRole } from '@shared/auth';
import { type FormEvent, useState } from 'react';
import { DataTable } from '../../../components/admin/data-table';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { toast } from '../../../lib/toast';
import { trpc } from '../../../lib/trpc';
import { formatLoginTime } from '../account/session-time';

const ROLE_LABEL: Record<AdminRole, string> = { owner: 'Owner', staff: 'Staff' };

/**
 * The Team tab (owner only, decisions 0030 and 0032): every admin account with its role, which the owner
 * can change for others, whether it signs in with two-factor (reset for a lost phone), removing an account,
 * and invitations by one-time link.
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
  const resetTwoFactor = trpc.admin.team.resetTwoFactor.useMutation(done('Two-factor sign-in reset'));
  type Member = NonNullable<typeof team.data>[number];

  return (
    <div>
      <h2 className="font-serif text-2xl">Team</h2>
      <p className="mt-1 text-sm text-muted">
        Owners may do everything; staff work on products, media and orders.
      </p>
      <InviteForm />
      <OpenInvites />
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
                id: 'twoFactor',
                header: 'Two-factor',
                cell: (a) =>
                  a.twoFactor ? (
                    <span className="flex flex-wrap items-center gap-2">
                      On
                      {a.you ? null : (
                        <Button
                          variant="ghost"
                          disabled={resetTwoFactor.isPending}
                          aria-label={`Reset two-factor sign-in of ${a.email}`}
                          onClick={() => {
                            if (
                              window.confirm(
                                `Reset two-factor sign-in of ${a.email}? They are signed out and sign in with their password alone until they set it up again.`,
                              )
                            )
                              resetTwoFactor.mutate({ id: a.id });
                          }}
                        >
                          Reset
                        </Button>
                      )}
                    </span>
                  ) : (
                    'Off'
                  ),
              },
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

/** An invitation by email: the link is shown to copy and, when asked, emailed through the outbox. */
function InviteForm() {
  const utils = trpc.useUtils();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<AdminRole>('staff');
  const [send, setSend] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const invite = trpc.admin.team.invite.useMutation({
    onSuccess(result) {
      setEmail('');
      toast.success(result.emailed ? `Invitation emailed to ${result.invite.email}` : 'Invitation made');
      void utils.admin.team.invites.invalidate();
    },
    onError: (err) => setError(err.message === 'Invalid input' ? 'Enter an email address' : err.message),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    invite.mutate({ email, role, send });
  };
  return (
    <section
      aria-labelledby="invite-heading"
      className="mt-6 rounded-2xl border border-stone-line bg-white/70 p-5"
    >
      <h3 id="invite-heading" className="font-serif text-xl">
        Invite someone
      </h3>
      <form className="mt-3 flex flex-wrap items-end gap-3" onSubmit={submit}>
        <TextField
          label="Email"
          type="email"
          required
          className="min-w-64 flex-1"
          value={email}
          error={error}
          onChange={(e) => setEmail(e.target.value)}
        />
        <label className="text-sm font-medium text-ink">
          Role
          <select
            value={role}
            onChange={(e) => setRole(e.target.value as AdminRole)}
            className="mt-1 block rounded-lg border border-stone-line bg-white px-2 py-2"
          >
            <option value="staff">{ROLE_LABEL.staff}</option>
            <option value="owner">{ROLE_LABEL.owner}</option>
          </select>
        </label>
        <label className="flex items-center gap-2 pb-2 text-sm">
          <input type="checkbox" checked={send} onChange={(e) => setSend(e.target.checked)} />
          Email the link
        </label>
        <Button type="submit" disabled={invite.isPending}>
          {invite.isPending ? 'Inviting…' : 'Invite'}
        </Button>
      </form>
      {invite.data ? (
        <div className="mt-4 text-sm" role="status">
          <p>
            Link for {invite.data.invite.email}, good once until{' '}
            {formatLoginTime(invite.data.invite.expiresAt)}:
          </p>
          <p className="mt-1 break-all rounded-lg bg-sand/60 px-3 py-2 font-mono" data-testid="invite-link">
            {invite.data.link}
          </p>
        </div>
      ) : null}
    </section>
  );
}

function OpenInvites() {
  const utils = trpc.useUtils();
  const invites = trpc.admin.team.invites.useQuery();
  const revoke = trpc.admin.team.revokeInvite.useMutation({
    onSuccess() {
      toast.success('Invitation withdrawn');
      void utils.admin.team.invites.invalidate();
    },
    onError: (err) => toast.error(err.message),
  });
  if (!invites.data?.length) return null;
  return (
    <section aria-labelledby="open-invites-heading" className="mt-4">
      <h3 id="open-invites-heading" className="font-serif text-lg">
        Open invitations
      </h3>
      <ul className="mt-2 divide-y divide-stone-line text-sm">
        {invites.data.map((i) => (
          <li
            key={i.id}
            className="flex flex-wrap items-center justify-between gap-2 py-2"
            data-testid="open-invite"
          >
            <span>
              {i.email} ({ROLE_LABEL[i.role]}), until {formatLoginTime(i.expiresAt)}
            </span>
            <Button
              variant="ghost"
              disabled={revoke.isPending}
              aria-label={`Withdraw the invitation of ${i.email}`}
              onClick={() => revoke.mutate({ id: i.id })}
            >
              Withdraw
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
