/**
 * Fault: kill -9 of the server during a media upload: once midway through a slow upload, and once in the
 * window the start-up sweep exists for, after the server wrote the image's files and before their row
 * committed (the kill fires on the first file event in media/uploads/).
 */
import { type FSWatcher, mkdirSync, readdirSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UPLOADS_PREFIX } from '../../../src/storage/storage-keys.js';
import { photo } from '../fixtures.js';
import { multipart, send, signIn } from '../http.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../server.js';
import { Checks, type Soak, type StepResult } from '../step.js';
import {
  catalogueState,
  mediaConsistency,
  verifyFolder,
  waitForCleanUploads,
  withDb,
} from '../store-checks.js';

type Moment = { label: string; kill: 'midway' | 'first-temp-file' | 'first-final-file' };

const uploadTempDirs = () => new Set(readdirSync(tmpdir()).filter((n) => n.startsWith('media-upload-')));

export async function uploadKillStep(soak: Soak): Promise<StepResult> {
  const started = performance.now();
  const checks = new Checks();
  const [width, height] = soak.ci ? [1600, 1200] : [4000, 3000];
  const image = await photo(width, height);
  const productId = await withDb(soak.dataDir, async (db) => {
    const row = await db.selectFrom('products').select('id').orderBy('id').executeTakeFirstOrThrow();
    return row.id;
  });
  const moments: Moment[] = [
    { label: 'midway through a slow upload', kill: 'midway' },
    ...(soak.ci
      ? []
      : [{ label: 'as the first temporary file is written', kill: 'first-temp-file' as const }]),
    { label: 'after the first image file is in place, before its row commits', kill: 'first-final-file' },
  ];
  checks.note(
    `a ${(image.length / 1024 / 1024).toFixed(1)} MB ${width}×${height} JPEG, uploaded to product ${productId}`,
  );

  for (const moment of moments) {
    const cookie = await signIn(soak.port, ADMIN_EMAIL, ADMIN_PASSWORD);
    const form = multipart({}, { field: 'file', name: 'soak-photo.jpg', type: 'image/jpeg', data: image });
    const tempsBefore = uploadTempDirs();
    const uploads = path.join(soak.dataDir, UPLOADS_PREFIX);
    mkdirSync(uploads, { recursive: true });
    let watcher: FSWatcher | null = null;
    let killed: Promise<unknown> | null = null;
    let seen = '';
    const killNow = () => {
      killed ??= soak.server.kill();
    };
    if (moment.kill !== 'midway') {
      watcher = watch(uploads, (_event, name) => {
        const file = String(name ?? '');
        const isTemp = file.endsWith('.tmp');
        if ((moment.kill === 'first-temp-file') === isTemp && !killed) {
          seen = file;
          killNow();
        }
      });
    }
    const request = send({
      port: soak.port,
      method: 'POST',
      path: `/api/admin/products/${productId}/media`,
      headers: { cookie, 'content-type': form.contentType },
      body: form.body,
      timeoutMs: 60_000,
      ...(moment.kill === 'midway'
        ? {
            slow: {
              chunkBytes: 64 * 1024,
              pauseMs: 15,
              onChunk: (sent: number) => {
                if (sent >= form.body.length * 0.4) killNow();
              },
            },
          }
        : {}),
    }).then(
      (r) => `answered ${r.status}`,
      (e: Error) => `cut off (${e.message})`,
    );
    const answer = await request;
    watcher?.close();
    if (!killed) {
      checks.note(`${moment.label}: the upload ${answer} before the kill could land; killing now`);
      killNow();
    }
    await killed;
    const before = await withDb(soak.dataDir, (db) => mediaConsistency(db, soak.dataDir));
    checks.note(
      `kill -9 ${moment.label}${seen ? ` (on ${seen})` : ''}: request ${answer}; left behind before restart: ${before.orphanFiles.length} file(s) without a row, ${before.tempFiles.length} temporary file(s)`,
    );
    const leftover = [...uploadTempDirs()].filter((n) => !tempsBefore.has(n));
    if (leftover.length > 0) {
      checks.note(
        `the killed upload left ${leftover.length} folder(s) in ${tmpdir()} (outside the data folder; the OS temp cleaner's job); removed by the soak`,
      );
      for (const n of leftover) rmSync(path.join(tmpdir(), n), { recursive: true, force: true });
    }

    await soak.restart();
    const sweptIn = await waitForCleanUploads(soak.dataDir);
    if (before.orphanFiles.length + before.tempFiles.length > 0) {
      checks.check(
        sweptIn !== null,
        sweptIn !== null
          ? `the start-up sweep removed them within ${Math.round(sweptIn)} ms of the server being healthy`
          : 'the start-up sweep did not remove them within 15 s',
      );
    }
    // No catalogue check here: an upload that beat the kill legitimately adds a media item.
    checks.add(await verifyFolder(soak.dataDir, { paidSessions: soak.paidSessions }));
  }

  // The same upload, uninterrupted, works and keeps its files.
  const cookie = await signIn(soak.port, ADMIN_EMAIL, ADMIN_PASSWORD);
  const form = multipart({}, { field: 'file', name: 'soak-photo.jpg', type: 'image/jpeg', data: image });
  const ok = await send({
    port: soak.port,
    method: 'POST',
    path: `/api/admin/products/${productId}/media`,
    headers: { cookie, 'content-type': form.contentType },
    body: form.body,
    timeoutMs: 60_000,
  });
  checks.check(
    ok.status === 201,
    `an uninterrupted upload after the restarts answers 201 (got ${ok.status})`,
  );
  checks.add(await verifyFolder(soak.dataDir, { paidSessions: soak.paidSessions }));
  soak.catalogue = { name: 'with uploads', state: await withDb(soak.dataDir, catalogueState) };
  return checks.result('Fault: kill -9 during a media upload', started);
}
