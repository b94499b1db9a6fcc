/**
 * Fault: SIGTERM while requests are in flight. Two slow uploads (a photo and a catalogue file, each
 * streamed over about two seconds on a keep-alive connection, as browsers send them) are mid-body when
 * the signal arrives. They must finish with their 2xx; requests after close started must be refused or
 * answered 503; the process must exit 0 and leave a database that needs no recovery.
 */
import { importYaml, photo } from '../fixtures.js';
import { keepAliveAgent, multipart, NetError, send, signIn, trpcGetPath } from '../http.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../server.js';
import { Checks, type Soak, type StepResult, sleep } from '../step.js';
import { catalogueState, verifyFolder, waitForCleanUploads, walBytes, withDb } from '../store-checks.js';

type Settled = { status: number; text: string; at: number };

const describe = (p: Promise<{ status: number }>): Promise<Settled> =>
  p.then(
    (r) => ({ status: r.status, text: `${r.status}`, at: performance.now() }),
    (e: Error) => ({ status: 0, text: e instanceof NetError ? e.code : e.message, at: performance.now() }),
  );

export async function sigtermStep(soak: Soak): Promise<StepResult> {
  const started = performance.now();
  const checks = new Checks();
  const cookie = await signIn(soak.port, ADMIN_EMAIL, ADMIN_PASSWORD);
  const productId = await withDb(soak.dataDir, async (db) => {
    const row = await db.selectFrom('products').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    return row.id;
  });
  const image = await photo(1200, 900);
  const mediaForm = multipart({}, { field: 'file', name: 'sigterm.jpg', type: 'image/jpeg', data: image });
  const prefix = `term_${Date.now().toString(36)}`;
  const catalogForm = multipart(
    { mode: 'add' },
    { field: 'file', name: 'add.yaml', type: 'application/yaml', data: Buffer.from(importYaml(300, prefix)) },
  );
  const agent = keepAliveAgent();
  const idle = keepAliveAgent(1);
  // A connection that is open and idle when the signal comes, like a browser's between two clicks.
  await send({ port: soak.port, path: '/healthz', agent: idle });

  const slow = (bytes: number) => ({ chunkBytes: Math.ceil(bytes / 40), pauseMs: 50 });
  const upload = describe(
    send({
      port: soak.port,
      method: 'POST',
      path: `/api/admin/products/${productId}/media`,
      headers: { cookie, 'content-type': mediaForm.contentType },
      body: mediaForm.body,
      agent,
      timeoutMs: 30_000,
      slow: slow(mediaForm.body.length),
    }),
  );
  const importing = describe(
    send({
      port: soak.port,
      method: 'POST',
      path: '/api/admin/catalog/import',
      headers: { cookie, 'content-type': catalogForm.contentType },
      body: catalogForm.body,
      agent,
      timeoutMs: 30_000,
      slow: slow(catalogForm.body.length),
    }),
  );

  await sleep(500);
  const signalledAt = performance.now();
  soak.server.signal('SIGTERM');
  await sleep(200);
  const freshConnection = await describe(
    send({ port: soak.port, path: trpcGetPath(['catalogue.search'], [{ limit: 24 }]), timeoutMs: 5000 }),
  );
  const idleConnection = await describe(
    send({ port: soak.port, path: '/healthz', agent: idle, timeoutMs: 5000 }),
  );
  const [up, imp] = await Promise.all([upload, importing]);
  const exit = await Promise.race([soak.server.exited, sleep(20_000).then(() => null)]);
  const exitMs = performance.now() - signalledAt;
  agent.destroy();
  idle.destroy();

  const after = (r: Settled) => `${Math.round(r.at - signalledAt)} ms after SIGTERM`;
  checks.check(
    up.status === 201,
    `the photo upload in flight finished: ${up.text}, ${after(up)} (expected 201)`,
  );
  checks.check(
    imp.status === 200,
    `the catalogue import in flight finished: ${imp.text}, ${after(imp)} (expected 200)`,
  );
  const refused = (r: Settled) =>
    r.status === 503 || ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ERESPONSE'].includes(r.text);
  checks.check(
    refused(freshConnection),
    `a new connection after close started: ${freshConnection.text} (503 or refused)`,
  );
  checks.check(
    refused(idleConnection),
    `a request on an idle keep-alive connection: ${idleConnection.text} (503 or closed)`,
  );
  checks.check(
    exit !== null && exit.code === 0,
    exit
      ? `the process exited with code ${exit.code ?? exit.signal} ${Math.round(exitMs)} ms after SIGTERM`
      : 'the process had not exited 20 s after SIGTERM',
  );
  if (!exit) await soak.server.kill();
  const wal = walBytes(soak.dataDir);
  checks.check(
    wal === null || wal === 0,
    wal === null || wal === 0
      ? 'no store.db-wal left: the database was closed cleanly'
      : `store.db-wal left with ${wal} bytes although the process exited 0: the close did not checkpoint (another connection still open?)`,
  );
  const rows = await withDb(soak.dataDir, async (db) => ({
    imported: Number(
      (
        await db
          .selectFrom('products')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('id', 'like', `${prefix}%`)
          .executeTakeFirstOrThrow()
      ).n,
    ),
  }));
  checks.check(
    rows.imported === 300,
    `the import's 300 products are all there after the exit (${rows.imported})`,
  );
  checks.add(await verifyFolder(soak.dataDir, { paidSessions: soak.paidSessions }));

  await soak.restart();
  await waitForCleanUploads(soak.dataDir);
  soak.catalogue = { name: 'after SIGTERM', state: await withDb(soak.dataDir, catalogueState) };
  return checks.result('Fault: SIGTERM during requests', started);
}
