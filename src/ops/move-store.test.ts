import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { demoDir } from '../app-root.js';
import { databaseFile, openDatabase } from '../db/connect.js';
import type { Db } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { openPostgres, type PostgresHandle } from '../db/postgres/connect-postgres.js';
import { insertAdmin } from '../modules/auth/admins.repository.js';
import { SecretBox } from '../modules/auth/two-factor/secret-box.js';
import { loadDemoCatalogueIfEmpty } from '../modules/demo/demo-loader.js';
import type { FileStorage } from '../storage/file-storage.js';
import { LocalFileStorage } from '../storage/local-file-storage.js';
import { createThrowawayDatabase, type ThrowawayDatabase } from '../test-support/postgres.js';
import { S3RVER_CREDENTIALS, startS3Server, type TestS3Server } from '../test-support/s3.js';
import { lockDataDirShared } from './data-lock.js';
import { MoveRefused, moveStore } from './move-store.js';
import { COPIED_TABLES } from './move-store-tables.js';

const NOW = '2026-11-22T10:00:00.000Z';
const clock = { now: () => new Date(NOW) };
/** The SQLite store's session key, which sealed its admins' TOTP secrets. */
const SOURCE_KEY = randomBytes(32);
const SOURCE_BOX = new SecretBox([SOURCE_KEY]);
const TOTP_SECRET = randomBytes(20);

/** A stopped SQLite store with the demo catalogue, an upload, and at least one row in every table it has. */
async function makeSourceStore(dir: string): Promise<void> {
  const handle = openDatabase(databaseFile(dir));
  const db: Db = handle.db;
  try {
    await migrateToLatest(db);
    const files = new LocalFileStorage(dir);
    await loadDemoCatalogueIfEmpty({ db, storage: files, demoDir, clock });
    await files.put('media/uploads/abc-640.webp', Buffer.from('an uploaded picture'));
    await files.put('catalogs/catalog-export-1.yaml', Buffer.from('products: []\n'));
    // What a crash left half written: not part of the store, not moved.
    writeFileSync(path.join(dir, 'media', 'uploads', 'abc-320.webp.123.456.tmp'), 'half');
    const adminId = await insertAdmin(db, 'owner@shop.example', 'scrypt$hash', new Date(NOW));
    await db
      .updateTable('admins')
      .set({ totp_secret: SOURCE_BOX.seal(TOTP_SECRET), totp_enabled_at: NOW, totp_last_step: 1 })
      .where('id', '=', adminId)
      .execute();
    await db
      .insertInto('admin_sessions')
      .values({
        id: 'session-0123456789abcdef',
        admin_id: adminId,
        epoch: 0,
        created_at: NOW,
        last_seen_at: NOW,
      })
      .execute();
    await db
      .insertInto('admin_recovery_codes')
      .values({ admin_id: adminId, code_hash: 'a-recovery-code-hash', used_at: null })
      .execute();
    await db
      .insertInto('admin_invites')
      .values({
        token_hash: 'an-invitation-token-hash',
        email: 'packer@shop.example',
        role: 'staff',
        invited_by: 'owner@shop.example',
        created_at: NOW,
        expires_at: NOW,
        accepted_at: null,
        revoked_at: null,
      })
      .execute();
    await db
      .insertInto('admin_audit')
      .values({
        at: NOW,
        admin_id: adminId,
        admin_email: 'owner@shop.example',
        ip: '192.0.2.7',
        action: 'admin.settings.update',
        target: null,
        details: JSON.stringify({ changes: [{ field: 'storeName', from: 'Lumière', to: 'Noor' }] }),
      })
      .execute();
    await db
      .insertInto('products')
      .values({
        id: 'tricky',
        title: 'Kurta “naïve” 🧵 with a NUL \u0000 inside',
        description: 'line one\nline two',
        manufacturer: 'Ümit & Sons',
        manufacturer_url: null,
        sku: 'TRICKY-1',
        price_minor: 2 ** 40,
        currency: 'jpy',
        sizes: '["M"]',
        colors: '[]',
        tags: JSON.stringify(['eid', 'ürdü']),
        size_detail: JSON.stringify({ M: { chest: 40, note: null } }),
        image_folder: null,
        images: '[]',
        stripe_payment_link: null,
        product_link: null,
        slug: 'kurta',
        created_at: NOW,
        updated_at: NOW,
      })
      .execute();
    await db
      .insertInto('media')
      .values({
        id: 'm-upload',
        product_id: 'tricky',
        url: '/media/uploads/abc-640.webp',
        file_name: 'abc.png',
        media_type: 'image',
        display_order: 0,
        alt_text: null,
        created_at: NOW,
        updated_at: NOW,
        storage_key: 'media/uploads/abc-640.webp',
        variants: '[]',
      })
      .execute();
    await db
      .insertInto('product_history')
      .values({
        product_id: 'tricky',
        product_title: 'Kurta',
        action: 'create',
        admin_email: 'owner@shop.example',
        snapshot: '{"id":"tricky"}',
        changes: '[]',
        created_at: NOW,
      })
      .execute();
    await sql`INSERT INTO sku_renames (product_id, product_title, old_sku, new_sku, kept_by_product_id, renamed_at)
      VALUES ('tricky', 'Kurta', 'A', 'A-2', 'x', ${NOW})`.execute(db);
    await db
      .insertInto('orders')
      .values({
        id: 'o1',
        number: 1001,
        status: 'paid',
        payment_mode: 'demo',
        currency: 'usd',
        subtotal_minor: 8900,
        total_minor: 8900,
        customer_email: 'a@b.example',
        customer_name: 'A B',
        shipping_address: JSON.stringify({ line1: '1 Road', country: 'PK' }),
        billing_address: null,
        stripe_session_id: 'demo_o1',
        created_at: NOW,
        updated_at: NOW,
        paid_at: NOW,
      })
      .execute();
    await db
      .insertInto('order_lines')
      .values({
        order_id: 'o1',
        product_id: 'tricky',
        title: 'Kurta',
        size: 'M',
        quantity: 1,
        unit_price_minor: 8900,
        line_total_minor: 8900,
        image_url: '/media/uploads/abc-640.webp',
      })
      .execute();
    // A code with a JSON scope and a use by the order (decision 0037).
    await db
      .insertInto('discounts')
      .values({
        id: 'dsc_1',
        kind: 'code',
        name: 'Eid — ten off',
        code: 'Eid10',
        code_key: 'EID10',
        value_type: 'percent',
        percent: 10,
        amount_minor: null,
        currency: null,
        target: 'order',
        scope: JSON.stringify({ tags: ['lawn'], colours: ['teal'] }),
        starts_at: NOW,
        ends_at: null,
        ended_at: null,
        min_order_minor: 10_000,
        max_uses: 50,
        max_uses_per_email: 1,
        uses: 1,
        created_at: NOW,
        updated_at: NOW,
      })
      .execute();
    await db
      .insertInto('discount_redemptions')
      .values({
        discount_id: 'dsc_1',
        order_id: 'o1',
        email: 'a@b.example',
        status: 'redeemed',
        amount_minor: 890,
        created_at: NOW,
        updated_at: NOW,
      })
      .execute();
    await db
      .insertInto('stripe_events')
      .values({
        id: 'evt_1',
        type: 'checkout.session.completed',
        order_id: 'o1',
        outcome: 'paid',
        received_at: NOW,
      })
      .execute();
    await sql`UPDATE orders SET fulfilment = 'shipped', carrier = 'UPS', tracking_number = '1Z',
      shipped_at = ${NOW}, refunded_minor = 1000, access_token = 'tok_abc' WHERE id = 'o1'`.execute(db);
    await db
      .insertInto('refunds')
      .values({
        id: 'rf_1',
        order_id: 'o1',
        amount_minor: 1000,
        currency: 'usd',
        reason: 'Too small',
        lines: '[]',
        status: 'succeeded',
        provider: 'demo',
        provider_refund_id: 'demo_re_rf_1',
        failure: null,
        admin_email: 'owner@shop.example',
        created_at: NOW,
        updated_at: NOW,
      })
      .execute();
    await db
      .insertInto('cod_phone_trust')
      .values({ phone: '+923001234567', lifted_at: NOW, lifted_by: 'owner@shop.example' })
      .execute();
    await sql`UPDATE orders SET payment_method = 'cash_on_delivery', method_fee_minor = 200,
      phone = '+923001234567' WHERE id = 'o1'`.execute(db);
    await db
      .insertInto('size_stock')
      .values({ product_id: 'tricky', size: 'M', on_hand: 2, reserved: 1 })
      .execute();
    await db
      .insertInto('stock_reservations')
      .values({
        order_id: 'o1',
        product_id: 'tricky',
        size: 'M',
        quantity: 1,
        state: 'sold',
        expires_at: NOW,
        created_at: NOW,
      })
      .execute();
    await db
      .insertInto('stock_alerts')
      .values({
        product_id: 'tricky',
        size: 'M',
        email: 'wait@b.example',
        created_at: NOW,
        notified_at: null,
      })
      .execute();
    await db
      .insertInto('order_events')
      .values({
        order_id: 'o1',
        kind: 'shipped',
        actor: 'owner@shop.example',
        detail: '{"carrier":"UPS"}',
        at: NOW,
      })
      .execute();
    // A return asked for by the shopper, its line holding an L for the exchange (decision 0039).
    await db
      .insertInto('returns')
      .values({
        id: 'ret_1',
        order_id: 'o1',
        status: 'requested',
        reason: 'too_small',
        reason_text: null,
        resolution: 'exchange',
        decline_reason: null,
        condition_note: null,
        exchange_carrier: null,
        exchange_tracking: null,
        refunded_minor: null,
        currency: 'usd',
        created_at: NOW,
        updated_at: NOW,
        approved_at: null,
        received_at: null,
        closed_at: null,
      })
      .execute();
    const line = await db
      .selectFrom('order_lines')
      .select('id')
      .where('order_id', '=', 'o1')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('return_lines')
      .values({
        return_id: 'ret_1',
        order_line_id: line.id,
        quantity: 1,
        exchange_colour: '',
        exchange_size: 'L',
        held: 1,
      })
      .execute();
    await db
      .insertInto('email_outbox')
      .values({
        id: 'eml_1',
        kind: 'order_confirmation',
        order_id: 'o1',
        to_address: 'a@b.example',
        subject: 'Order #1001 confirmed — Shop',
        html: '<p>Thank you</p>',
        text_body: 'Thank you',
        status: 'queued',
        attempts: 2,
        last_error: '421 try later',
        created_at: NOW,
        next_attempt_at: NOW,
        claimed_by: null,
        claim_expires_at: null,
        sent_at: null,
        message_id: null,
      })
      .execute();
    await db
      .insertInto('catalog_versions')
      .values({
        id: 'cv_1',
        label: 'first',
        file_name: 'catalog-export-1.yaml',
        storage_key: 'catalogs/catalog-export-1.yaml',
        tags: '["spring"]',
        is_active: 1,
        kind: 'export',
        product_count: 0,
        byte_size: 13,
        checksum: 'x',
        created_by: 'owner@shop.example',
        created_at: NOW,
        updated_at: NOW,
      })
      .execute();
    for (let i = 0; i < 1200; i++)
      await db
        .insertInto('logs')
        .values({
          time: NOW,
          level: 'info',
          source: 'server',
          message: `line ${i}`,
          details: '{"n":1}',
          request_id: null,
          repeat_count: 1,
          last_time: NOW,
        })
        .execute();
    await db
      .insertInto('web_vitals')
      .values({ time: NOW, metric: 'LCP', value: 1234.5, route: '/', navigation_type: 'navigate' })
      .execute();
    await db.insertInto('funny_quotes').values({ quote: 'Q', author: 'A', created_at: NOW }).execute();
    await db
      .insertInto('version_info')
      .values({ version: '1.0.0', environment: 'production', notes: null, updated_at: NOW })
      .execute();
    await db.updateTable('settings').set({ store_name: 'Moved Shop', banner_active: 1 }).execute();
  } finally {
    await handle.close();
  }
}

/** JSON with its object keys sorted: jsonb keeps keys in its own order, not the order they were written. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => [k, sortedKeys(v)]),
  );
}

/** Rows as the app reads them on each engine, JSON text compared as values. */
function comparable(rows: Record<string, unknown>[]): string[] {
  const value = (v: unknown): unknown => {
    if (typeof v !== 'string') return v;
    if (/^[[{]/.test(v)) {
      try {
        return sortedKeys(JSON.parse(v));
      } catch {
        return v;
      }
    }
    return v.replaceAll('\u0000', '\uFFFD'); // PostgreSQL text cannot hold U+0000 (decision 0015)
  };
  return rows
    .map((row) =>
      JSON.stringify(
        Object.fromEntries(
          Object.entries(row)
            .map(([k, v]) => [k, value(v)])
            .sort(),
        ),
      ),
    )
    .sort();
}

async function listKeys(storage: FileStorage): Promise<string[]> {
  const keys: string[] = [];
  for await (const file of storage.list('')) keys.push(file.key);
  return keys;
}

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.close();
});

describe('moving a SQLite store to PostgreSQL', () => {
  let dir: string;
  let database: ThrowawayDatabase;
  let target: PostgresHandle;
  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'move-store-'));
    await makeSourceStore(dir);
    database = await createThrowawayDatabase();
    target = openPostgres(database.url, 2);
  });
  afterEach(async () => {
    await target.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies every table and every file into PostgreSQL and a bucket, equal to the source', async () => {
    const { storage } = await s3.bucket();
    const lines: string[] = [];
    const targetKey = randomBytes(32);
    const report = await moveStore({
      sourceDir: dir,
      target: target.db,
      storage,
      log: (l) => lines.push(l),
      resealSecret: (sealed) => {
        const secret = new SecretBox([targetKey, SOURCE_KEY]).open(sealed);
        return secret === null ? null : new SecretBox([targetKey]).seal(secret);
      },
    });

    const source = new SQLite(databaseFile(dir), { readonly: true });
    try {
      for (const table of COPIED_TABLES) {
        const mine = source.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[];
        expect(mine.length, `${table} has rows in the source`).toBeGreaterThan(0);
        const theirs = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(
          target.db,
        );
        // The two-factor keys are sealed again, for the keys the store runs with on PostgreSQL.
        const resealed = table === 'admins' ? ['totp_secret'] : [];
        const without = (rows: Record<string, unknown>[]) =>
          rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !resealed.includes(k))));
        expect(comparable(without(theirs.rows)), table).toEqual(comparable(without(mine)));
        expect(report.tables.find((t) => t.table === table)?.rows, table).toBe(mine.length);
      }
    } finally {
      source.close();
    }
    expect(lines.some((l) => l.includes('logs: 1200 rows'))).toBe(true);
    const moved = await target.db.selectFrom('admins').select('totp_secret').executeTakeFirstOrThrow();
    expect(new SecretBox([targetKey]).open(moved.totp_secret ?? '')).toEqual(TOTP_SECRET);
    expect(new SecretBox([SOURCE_KEY]).open(moved.totp_secret ?? '')).toBeNull();

    // Every file, byte for byte, and not the half-written one.
    const folder = new LocalFileStorage(dir);
    const keys = await listKeys(storage);
    expect(keys).not.toContain('media/uploads/abc-320.webp.123.456.tmp');
    expect(keys).toContain('media/uploads/abc-640.webp');
    expect(keys.length).toBe(report.files.count);
    expect(keys.length).toBeGreaterThan(20);
    for (const key of keys) {
      const sum = (data: Buffer) => createHash('sha256').update(data).digest('hex');
      expect(sum(await storage.read(key)), key).toBe(sum(await folder.read(key)));
    }
    expect(report.files.copied).toBe(true);

    // The search index is rebuilt, and new rows get ids after the copied ones.
    const counts = await sql<{ products: number; indexed: number }>`
      SELECT (SELECT count(*) FROM products) AS products, (SELECT count(*) FROM product_search) AS indexed`.execute(
      target.db,
    );
    expect(counts.rows[0]?.indexed).toBe(counts.rows[0]?.products);
    const before = await target.db
      .selectFrom('logs')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    const fresh = await target.db
      .insertInto('logs')
      .values({ time: NOW, level: 'info', source: 's', message: 'after', details: '{}', last_time: NOW })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(fresh.id).toBe(Number(before?.id) + 1);
    expect(await insertAdmin(target.db, 'second@shop.example', 'h', new Date(NOW))).toBe(2);
  });

  it('moves a store whose storefront never changed, which has no revision row for PostgreSQL’s to match', async () => {
    const source = new SQLite(databaseFile(dir));
    source.exec('DELETE FROM app_meta');
    source.close();
    const report = await moveStore({ sourceDir: dir, target: target.db, storage: new LocalFileStorage(dir) });
    expect(report.tables.find((t) => t.table === 'app_meta')?.rows).toBe(0);
    // The revision PostgreSQL's schema starts with stays: the storefront's caches need one.
    const kept = await target.db.selectFrom('app_meta').select('key').execute();
    expect(kept.map((r) => r.key)).toContain('storefront_revision');
  });

  it('leaves the files in the data folder when no bucket is configured, and still checks them', async () => {
    const report = await moveStore({ sourceDir: dir, target: target.db, storage: new LocalFileStorage(dir) });
    expect(report.files.copied).toBe(false);
    expect(report.files.count).toBeGreaterThan(20);
  });

  it('refuses a database or a bucket that is not empty, and changes nothing', async () => {
    await migrateToLatest(target.db, 'postgres');
    await target.db
      .insertInto('funny_quotes')
      .values({ quote: 'already here', author: '', created_at: NOW })
      .execute();
    const { storage } = await s3.bucket();
    await expect(moveStore({ sourceDir: dir, target: target.db, storage })).rejects.toThrow(
      /PostgreSQL database is not empty \(funny_quotes has rows\)/,
    );
    expect(await listKeys(storage)).toEqual([]);

    const other = await createThrowawayDatabase();
    const empty = openPostgres(other.url, 1);
    try {
      await storage.put('media/uploads/someone-elses.webp', Buffer.from('x'));
      const refused = await moveStore({ sourceDir: dir, target: empty.db, storage }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(MoveRefused);
      expect(String(refused)).toMatch(/is not empty \(media\/uploads\/someone-elses\.webp\)/);
      const tables = await sql<{
        found: string | null;
      }>`SELECT to_regclass('public.products')::text AS found`.execute(empty.db);
      expect(tables.rows[0]?.found).toBeNull(); // not even migrated
    } finally {
      await empty.close();
      await other.drop();
    }
  });

  it('refuses a store with a table it does not know how to move', async () => {
    const source = new SQLite(databaseFile(dir));
    source.exec('CREATE TABLE wishlists (id INTEGER PRIMARY KEY, product_id TEXT)');
    source.close();
    await expect(
      moveStore({ sourceDir: dir, target: target.db, storage: new LocalFileStorage(dir) }),
    ).rejects.toThrow(/tables this version cannot move: wishlists/);
  });

  it('keeps nothing in PostgreSQL when a row cannot be written', async () => {
    await migrateToLatest(target.db, 'postgres');
    await sql
      .raw(
        `CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$;
         CREATE TRIGGER refuse_vitals BEFORE INSERT ON web_vitals FOR EACH ROW EXECUTE FUNCTION refuse();`,
      )
      .execute(target.db);
    await expect(
      moveStore({ sourceDir: dir, target: target.db, storage: new LocalFileStorage(dir) }),
    ).rejects.toThrow(/disk full/);
    for (const table of ['products', 'admins', 'orders', 'logs'] as const) {
      const result = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(
        target.db,
      );
      expect(result.rows[0]?.n, table).toBe(0);
    }
  });
});

describe('npm run move-to-postgres', () => {
  const runCli = (env: Record<string, string>) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/move-store.ts'], {
      env: { PATH: process.env.PATH ?? '', ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });

  // Three runs of the command, each a process of its own that tsx compiles: slow on a busy machine.
  it('moves a stopped store into PostgreSQL and a bucket, and refuses while a store runs', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'move-cli-'));
    const database = await createThrowawayDatabase();
    try {
      await makeSourceStore(dir);
      const { name } = await s3.bucket();
      const env = {
        DATA_DIR: dir,
        DATABASE_URL: database.url,
        SESSION_SECRET: 'x'.repeat(40),
        AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
        ...s3.env(name),
      };
      const running = await lockDataDirShared(dir);
      const refused = runCli(env);
      running.release();
      expect(refused.status).toBe(2);
      expect(refused.stderr).toMatch(/A store server \(or a backup\) is running/);

      const moved = runCli(env);
      expect(moved.stderr).not.toMatch(/failed/i);
      expect(moved.status).toBe(0);
      expect(moved.stdout).toMatch(
        /row counts equal; \d+ files .* copied to the S3 bucket .*every sha256 equal/,
      );

      const again = runCli(env);
      expect(again.status).toBe(2);
      expect(again.stderr).toMatch(/not empty/);
    } finally {
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
