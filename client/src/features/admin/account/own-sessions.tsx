import type { AdminSessionEntry } from '@shared/auth';
import { DataTable } from '../../../components/admin/data-table';
import { Button } from '../../../components/ui/button';
import { formatLoginTime } from './session-time';
import { useEndSession, useOwnSessions } from './use-account';

/** This account's live sessions, each with its device, address and times, and a button to end it. */
export function OwnSessions() {
  const sessions = useOwnSessions();
  const end = useEndSession();
  return (
    <section
      className="mt-8 rounded-2xl border border-stone-line bg-white/70 p-6"
      aria-labelledby="sessions-heading"
    >
      <h2 id="sessions-heading" className="font-serif text-xl">
        Signed-in sessions
      </h2>
      <p className="mt-2 text-sm text-muted">
        Every browser signed in to this account now. Sign out one you do not recognise, then change your
        password.
      </p>
      {sessions.isError ? (
        <p role="alert" className="mt-4 text-sm text-red-800">
          Could not load the sessions.
        </p>
      ) : (
        <div className="mt-4">
          <DataTable<AdminSessionEntry>
            label="Signed-in sessions"
            testId="session-table"
            rowTestId="session-row"
            rows={sessions.data}
            rowKey={(s) => s.session}
            empty="No sessions."
            columns={[
              {
                id: 'device',
                header: 'Device',
                cell: (s) => (
                  <span title={s.userAgent ?? undefined}>
                    {s.device}
                    {s.current ? <span className="ml-2 text-muted">(this browser)</span> : null}
                  </span>
                ),
              },
              { id: 'address', header: 'Address', cell: (s) => s.address ?? 'Unknown' },
              { id: 'signed-in', header: 'Signed in', cell: (s) => formatLoginTime(s.signedInAt) },
              { id: 'seen', header: 'Last seen', cell: (s) => formatLoginTime(s.lastSeenAt) },
              {
                id: 'end',
                header: <span className="sr-only">Sign out</span>,
                cell: (s) => (
                  <Button
                    variant="secondary"
                    disabled={end.isPending}
                    aria-label={`Sign out ${s.device}${s.current ? ' (this browser)' : ''}`}
                    onClick={() => end.mutate({ session: s.session })}
                  >
                    Sign out
                  </Button>
                ),
              },
            ]}
          />
        </div>
      )}
    </section>
  );
}
