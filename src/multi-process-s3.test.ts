import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServer } from '../scripts/launcher/server.js';
import type { FileStorage } from './storage/file-storage.js';
import { createThrowawayDatabase, type ThrowawayDatabase } from './test-support/postgres.js';
import { S3RVER_CREDENTIALS, startS3Server, type TestS3Server } from './test-support/s3.js';
import { testEngine } from './test-support/test-store.js';

/**
 * Two store processes on one PostgreSQL database and one S3 bucket (s3rver), as a shop behind a load
 * balancer runs them: a picture uploaded through one process is served by the other. Real processes
 * (src/main.ts), real HTTP; run in the PostgreSQL pass of the suite, like multi-process.test.ts.
 */
const ADMIN = { email: 'owner@shop.example', password: 'a long enough password 1' };

async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/trpc/auth.login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  expect(res.status).toBe(200);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

async function within(withinMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > withinMs) throw new Error(`not seen within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - started;
}

describe.skipIf(testEngine !== 'postgres')('two store processes on one database and one S3 bucket', () => {
  let s3: TestS3Server;
  let bucket: { name: string; storage: FileStorage };
  let database: ThrowawayDatabase;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    s3 = await startS3Server();
    bucket = await s3.bucket();
    database = await createThrowawayDatabase('store_twins_s3');
    const env = {
      DATABASE_URL: database.url,
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      ...s3.env(bucket.name),
    };
    [a, b] = await Promise.all([
      startServer({ entry: 'source', env, timeoutMs: 60_000 }),
      startServer({ entry: 'source', env, timeoutMs: 60_000 }),
    ]);
  }, 90_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
    await s3?.close();
  });

  it('loads the demo pictures into the bucket once, and both processes serve them', async () => {
    expect([a, b].filter((p) => p.output().includes('Loaded the demo catalogue'))).toHaveLength(1);
    const demo: string[] = [];
    for await (const file of bucket.storage.list('media/demo/')) demo.push(file.key);
    expect(demo.length).toBeGreaterThan(10);
    const [fromA, fromB] = await Promise.all([a, b].map((p) => fetch(`${p.baseUrl}/${demo[0]}`)));
    expect(fromA?.status).toBe(200);
    expect(fromB?.status).toBe(200);
    expect(fromA?.headers.get('etag')).toBe(fromB?.headers.get('etag'));
  });

  it('a picture uploaded on A shows on B’s product page and is served by B within 1 s', async () => {
    const cookie = await signIn(a.baseUrl);
    const search = await fetch(
      `${a.baseUrl}/api/trpc/catalogue.search?input=${encodeURIComponent('{"limit":1}')}`,
    );
    const [product] = ((await search.json()) as { result: { data: { items: { id: string }[] } } }).result.data
      .items;
    if (!product) throw new Error('the demo catalogue has products');
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#2a6' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(png)]), 'twin.png');
    const upload = await fetch(`${a.baseUrl}/api/admin/products/${product.id}/media`, {
      method: 'POST',
      headers: { cookie },
      body: form,
    });
    expect(upload.status).toBe(201);
    const [item] = ((await upload.json()) as { items: { url: string }[] }).items;
    if (!item) throw new Error('one media item expected');

    const tookMs = await within(1000, async () => {
      const detail = await fetch(
        `${b.baseUrl}/api/trpc/catalogue.byId?input=${encodeURIComponent(JSON.stringify({ id: product.id }))}`,
      );
      return (await detail.text()).includes(item.url);
    });
    expect(tookMs).toBeLessThan(1000);
    const picture = await fetch(`${b.baseUrl}${item.url}`);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/webp');
    expect(
      Buffer.from(await picture.arrayBuffer()).equals(await bucket.storage.read(item.url.slice(1))),
    ).toBe(true);
  });
});
