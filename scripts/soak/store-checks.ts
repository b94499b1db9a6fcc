/**
 * What every fault step checks on the data folder after the server came back: the database is sound,
 * the catalogue is one whole version, media files and rows match, and paid orders are all still paid.
 * These read the folder directly (a second SQLite connection, WAL allows it), never through the server.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { databaseFile, openDatabase } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { catalogChecksum } from '../../src/modules/catalog-versions/catalog-file.js';
import { catalogProducts } from '../../src/modules/catalog-versions/catalog-versions.service.js';
import { storageKeysOf } from '../../src/modules/media/media.repository.js';
import { UPLOADS_PREFIX } from '../../src/storage/storage-keys.js';

export type CatalogueState = { products: number; checksum: string };

export async function withDb<T>(dataDir: string, fn: (db: Db) => Promise<T>): Promise<T> {
  const handle = openDatabase(databaseFile(dataDir));
  try {
    return await fn(handle.db);
  } finally {
    await handle.close();
  }
}

export async function integrity(db: Db): Promise<string> {
  const rows = await sql<{ integrity_check: string }>`PRAGMA integrity_check`.execute(db);
  return rows.rows.map((r) => r.integrity_check).join('; ');
}

export async function catalogueState(db: Db): Promise<CatalogueState> {
  const products = await catalogProducts(db);
  return { products: products.length, checksum: catalogChecksum(products) };
}

export type MediaConsistency = {
  /** Upload files no media row owns (banner pictures excepted: the settings own those). */
  orphanFiles: string[];
  /** Leftover temporary files of interrupted writes. */
  tempFiles: string[];
  /** Keys media rows own whose file is missing. */
  missingFiles: string[];
  uploadFiles: number;
};

export async function mediaConsistency(db: Db, dataDir: string): Promise<MediaConsistency> {
  const dir = path.join(dataDir, UPLOADS_PREFIX);
  const names = existsSync(dir) ? readdirSync(dir) : [];
  const rows = await db
    .selectFrom('media')
    .select(['storage_key', 'variants'])
    .where('storage_key', 'is not', null)
    .execute();
  const owned = new Set(rows.flatMap(storageKeysOf));
  const tempFiles = names.filter((n) => n.endsWith('.tmp')).map((n) => `${UPLOADS_PREFIX}${n}`);
  const orphanFiles = names
    .filter((n) => !n.endsWith('.tmp') && !n.startsWith('banner-'))
    .map((n) => `${UPLOADS_PREFIX}${n}`)
    .filter((key) => !owned.has(key));
  const missingFiles = [...owned].filter((key) => !existsSync(path.join(dataDir, key)));
  return { orphanFiles, tempFiles, missingFiles, uploadFiles: names.length };
}

/** Demo sessions the shoppers saw paid that are not (any more) a paid order. */
export async function missingPaidOrders(db: Db, sessions: readonly string[]): Promise<string[]> {
  const paid = new Set<string>();
  for (let i = 0; i < sessions.length; i += 500) {
    const rows = await db
      .selectFrom('orders')
      .select('stripe_session_id')
      .where('stripe_session_id', 'in', sessions.slice(i, i + 500))
      .where('status', '=', 'paid')
      .execute();
    for (const r of rows) if (r.stripe_session_id) paid.add(r.stripe_session_id);
  }
  return sessions.filter((s) => !paid.has(s));
}

/**
 * Product ids a shopper can buy, with the first size and the first colour each needs (null when it has
 * none: a product with colours is bought in one of them).
 */
export async function buyableProducts(
  db: Db,
): Promise<Array<{ id: string; size: string | null; colour: string | null }>> {
  const rows = await db.selectFrom('products').select(['id', 'sizes', 'colors']).execute();
  return rows.map((r) => ({ id: r.id, size: firstOfList(r.sizes), colour: firstOfList(r.colors) }));
}

/** The first entry of a JSON list column (sizes, colours), or null when it has none. */
export function firstOfList(text: string): string | null {
  const list = JSON.parse(text) as unknown;
  return Array.isArray(list) && typeof list[0] === 'string' ? list[0] : null;
}

export function walBytes(dataDir: string): number | null {
  const wal = `${databaseFile(dataDir)}-wal`;
  return existsSync(wal) ? statSync(wal).size : null;
}

export type FolderVerdict = { ok: boolean; lines: string[] };

/**
 * The common after-restart checks. `catalogue` lists the states the catalogue may be in (old and/or new);
 * `paidSessions` every demo session a shopper was told was paid.
 */
export async function verifyFolder(
  dataDir: string,
  expect: { catalogue?: Array<{ name: string; state: CatalogueState }>; paidSessions: readonly string[] },
): Promise<FolderVerdict & { catalogueName: string | null }> {
  return withDb(dataDir, async (db) => {
    const lines: string[] = [];
    let ok = true;
    const check = (pass: boolean, text: string) => {
      ok &&= pass;
      lines.push(`${pass ? 'ok  ' : 'FAIL'} ${text}`);
    };
    const integ = await integrity(db);
    check(integ === 'ok', `PRAGMA integrity_check: ${integ}`);
    let catalogueName: string | null = null;
    if (expect.catalogue) {
      const now = await catalogueState(db);
      catalogueName = expect.catalogue.find((c) => c.state.checksum === now.checksum)?.name ?? null;
      check(
        catalogueName !== null,
        catalogueName
          ? `catalogue is wholly the ${catalogueName} one (${now.products} products, ${now.checksum.slice(0, 19)}…)`
          : `catalogue matches none of ${expect.catalogue.map((c) => `${c.name} (${c.state.products})`).join(', ')}: ${now.products} products, ${now.checksum.slice(0, 19)}…`,
      );
    }
    const media = await mediaConsistency(db, dataDir);
    check(
      media.orphanFiles.length === 0 && media.tempFiles.length === 0,
      `no upload file without a row (${media.orphanFiles.length} orphan(s), ${media.tempFiles.length} temporary file(s), ${media.uploadFiles} file(s) in all)`,
    );
    check(
      media.missingFiles.length === 0,
      `no media row without its file (${media.missingFiles.length} missing)`,
    );
    if (expect.paidSessions.length > 0) {
      const missing = await missingPaidOrders(db, expect.paidSessions);
      check(
        missing.length === 0,
        `all ${expect.paidSessions.length} orders shoppers saw paid are present and paid (${missing.length} missing)`,
      );
    }
    return { ok, lines, catalogueName };
  });
}

/**
 * Waits until the start-up sweep has removed what a crash left (it runs just after the server listens),
 * or the time is up; returns how long it took, or null when files were still there.
 */
export async function waitForCleanUploads(dataDir: string, timeoutMs = 15_000): Promise<number | null> {
  const started = performance.now();
  for (;;) {
    const media = await withDb(dataDir, (db) => mediaConsistency(db, dataDir));
    if (media.orphanFiles.length === 0 && media.tempFiles.length === 0) return performance.now() - started;
    if (performance.now() - started > timeoutMs) return null;
    await new Promise((r) => setTimeout(r, 100));
  }
}
