/**
 * Fault: kill -9 of the server during an overwrite import sent through the admin route. The import
 * saves a backup version, then replaces the catalogue in one transaction; the kill lands inside that
 * transaction (timed from the backup row appearing) or, in the full run, earlier while the file is read.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { databaseFile } from '../../../src/db/connect.js';
import { importYaml, stateAfterImport } from '../fixtures.js';
import { multipart, send, signIn } from '../http.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../server.js';
import { Checks, type Soak, type StepResult, sleep } from '../step.js';
import { verifyFolder, waitForCleanUploads, withDb } from '../store-checks.js';

type Moment = { label: string; afterBackupMs: number | null; afterSendMs: number };

async function backupCount(dataDir: string): Promise<number> {
  return withDb(dataDir, async (db) => {
    const row = await db
      .selectFrom('catalog_versions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('kind', '=', 'backup')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  });
}

/** Resolves once a new backup version row is committed (the import's last step before replacing). */
async function backupCommitted(dataDir: string, before: number, signal: AbortSignal): Promise<boolean> {
  // better-sqlite3 itself, closed by hand: a handle from openDatabase() that never ran a Kysely query is
  // not closed by handle.close() (Kysely starts its driver lazily), and an open connection here keeps the
  // server's last-connection checkpoint from removing the WAL when it stops.
  const sqlite = new SQLite(databaseFile(dataDir), { readonly: true, fileMustExist: true });
  const count = sqlite.prepare("SELECT count(*) AS n FROM catalog_versions WHERE kind = 'backup'").pluck();
  try {
    while (!signal.aborted) {
      if (Number(count.get()) > before) return true;
      await sleep(5);
    }
    return false;
  } finally {
    sqlite.close();
  }
}

export async function importKillStep(soak: Soak): Promise<StepResult> {
  const started = performance.now();
  const checks = new Checks();
  const count = soak.ci ? 6000 : 30_000;
  const moments: Moment[] = [
    { label: 'inside the replacing transaction', afterBackupMs: 40, afterSendMs: 0 },
    ...(soak.ci ? [] : [{ label: 'while the file is being read', afterBackupMs: null, afterSendMs: 150 }]),
  ];

  for (const [i, moment] of moments.entries()) {
    const yaml = importYaml(count, `imp${i}_${Date.now().toString(36)}`);
    const fresh = { name: `imported (${count})`, state: await stateAfterImport(yaml) };
    const old = soak.catalogue;
    const cookie = await signIn(soak.port, ADMIN_EMAIL, ADMIN_PASSWORD);
    const backupsBefore = await backupCount(soak.dataDir);
    const form = multipart(
      { mode: 'overwrite' },
      { field: 'file', name: 'soak.yaml', type: 'application/yaml', data: Buffer.from(yaml) },
    );
    const watching = new AbortController();
    const backup = backupCommitted(soak.dataDir, backupsBefore, watching.signal);
    const sentAt = performance.now();
    const request = send({
      port: soak.port,
      method: 'POST',
      path: '/api/admin/catalog/import',
      headers: { cookie, 'content-type': form.contentType },
      body: form.body,
      timeoutMs: 120_000,
    }).then(
      (r) => `answered ${r.status} ${r.body.slice(0, 120)}`,
      (e: Error) => `cut off (${e.message})`,
    );
    let killedAfter = '';
    if (moment.afterBackupMs === null) {
      await sleep(moment.afterSendMs);
      killedAfter = `${moment.afterSendMs} ms after the upload started`;
    } else {
      const seen = await Promise.race([backup, request.then(() => false)]);
      if (!seen) checks.note('the import answered before its backup row was seen');
      await sleep(moment.afterBackupMs);
      killedAfter = `${moment.afterBackupMs} ms after the backup version was committed (${Math.round(performance.now() - sentAt)} ms in)`;
    }
    await soak.server.kill();
    watching.abort();
    await backup;
    const answer = await request;
    checks.note(`kill -9 ${moment.label}: ${killedAfter}; the admin's request was ${answer}`);

    await soak.restart();
    await waitForCleanUploads(soak.dataDir);
    const verdict = await verifyFolder(soak.dataDir, {
      catalogue: [old, fresh],
      paidSessions: soak.paidSessions,
    });
    checks.add(verdict);
    if (verdict.catalogueName === fresh.name) soak.catalogue = fresh;
    const versions = await withDb(soak.dataDir, (db) =>
      db.selectFrom('catalog_versions').select(['storage_key', 'kind']).execute(),
    );
    const missing = versions.filter((v) => !existsSync(path.join(soak.dataDir, v.storage_key)));
    checks.check(
      missing.length === 0,
      `every catalogue version row has its file (${versions.length} versions, ${missing.length} missing)`,
    );
  }
  return checks.result('Fault: kill -9 during an overwrite import', started);
}
