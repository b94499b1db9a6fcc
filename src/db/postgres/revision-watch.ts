import pg from 'pg';
import { type RevisionReader, STOREFRONT_REVISION_KEY } from '../store-revision.js';
import { STORE_APPLICATION_NAME } from './connect-postgres.js';
import type { LocalWrites } from './local-writes.js';

/**
 * The storefront revision on PostgreSQL, for caches that ask for it on every request (synchronously): kept in
 * memory and brought up to date by the notification the revision trigger sends at commit (LISTEN), with a
 * read every `pollMs` as well, in case a notification is lost while the listening connection reconnects.
 * So an edit made through any process reaches every process's caches well within a second.
 */
export type RevisionWatch = { read: RevisionReader; refresh(): Promise<void>; stop(): Promise<void> };

/** How long after a write of its own the process reads the revision from the database (see LocalWrites). */
const OWN_WRITE_MS = 2000;

export async function watchRevision(
  pool: pg.Pool,
  opts: { url: string; pollMs?: number; writes?: LocalWrites },
): Promise<RevisionWatch> {
  let value = '0';
  let stopped = false;
  // Each read and each notification gets the next number when it starts or arrives; a value is taken only
  // from something newer than what gave the current one, so a read that started before a notification (or
  // before another read) never puts back an older value, however the answers are ordered. (Comparing the
  // values would not do: a restore may move the revision back.)
  let counter = 0;
  let current = 0;
  const take = (next: string, seq: number) => {
    if (seq <= current) return;
    value = next;
    current = seq;
  };
  // The read in flight and when it started, so the requests of a busy moment share one query.
  let inflight: { startedAt: number; done: Promise<void> } | null = null;
  const refresh = (): Promise<void> => {
    const startedAt = Date.now();
    const seq = ++counter;
    const done = pool
      .query<{ value: string }>('SELECT value FROM app_meta WHERE key = $1', [STOREFRONT_REVISION_KEY])
      .then((result) => take(result.rows[0]?.value ?? '0', seq))
      .finally(() => {
        if (inflight?.done === done) inflight = null;
      });
    inflight = { startedAt, done };
    return done;
  };
  await refresh();

  let listener: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  // Listens on a connection of its own. When the server ends it (a restart, a failover,
  // pg_terminate_backend) or it cannot be opened, it tries again every second until it can, and reads the
  // revision once it listens, for what was announced meanwhile; the poll keeps the value right until then.
  const listen = async (attempt: { first: boolean }): Promise<void> => {
    const client = new pg.Client({ connectionString: opts.url, application_name: STORE_APPLICATION_NAME });
    let lost = false;
    const again = () => {
      // The driver may report one loss twice (the server's message, then the socket's end).
      if (lost) return;
      lost = true;
      const wasListening = listener === client;
      if (wasListening) listener = null;
      void client.end().catch(() => undefined);
      // A first attempt that fails is the caller's to report (the store does not start).
      if (stopped || (!wasListening && attempt.first)) return;
      retry = setTimeout(() => void listen({ first: false }).catch(() => undefined), 1000).unref();
    };
    client.on('notification', (message) => {
      if (message.channel === 'storefront_revision' && message.payload) take(message.payload, ++counter);
    });
    client.on('error', again);
    try {
      await client.connect();
      await client.query('LISTEN storefront_revision');
    } catch (error) {
      again();
      throw error;
    }
    if (stopped || lost) {
      await client.end().catch(() => undefined);
      return;
    }
    listener = client;
    if (!attempt.first) await refresh().catch(() => undefined);
  };
  await listen({ first: true });

  const timer = setInterval(() => void refresh().catch(() => undefined), opts.pollMs ?? 500);
  timer.unref();
  const read: RevisionReader = Object.assign(() => value, {
    settle: async () => {
      const writes = opts.writes;
      if (!writes || writes.sinceLast() >= OWN_WRITE_MS) return;
      // A read that started after this process's last write sees it; an older one may not.
      const reading = inflight;
      await (reading && reading.startedAt >= writes.lastAt() ? reading.done : refresh());
    },
  });
  return {
    read,
    refresh,
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (retry) clearTimeout(retry);
      await listener?.end().catch(() => undefined);
    },
  };
}
