import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { LogService } from '../modules/logs/log-service.js';
import { insertProducts } from '../test-support/fixtures.js';
import {
  buildTestApp,
  createAdmin,
  createTestStore,
  loginCookie,
  type TestStore,
} from '../test-support/test-store.js';

const EMAIL = 'owner@shop.example';
const PASSWORD = 'correct horse battery';

/**
 * A browser that gives up on an upload (the admin closed the tab, the network dropped) is not a failure of
 * the store: the log says so at info level, without a stack, and nothing reaches Admin → Logs as an error.
 */
describe('an upload the browser aborts', () => {
  let store: TestStore;
  let app: FastifyInstance;
  afterEach(async () => {
    await app?.close();
    await store?.cleanup();
  });

  /** Sends the headers and half of a multipart body on a raw socket, then drops the connection. */
  async function abortMidBody(port: number, url: string, cookie: string): Promise<void> {
    const boundary = '----storefront-abort-test';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`;
    const declared = 4 * 1024 * 1024;
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    socket.on('error', () => undefined);
    socket.write(
      `POST ${url} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${cookie}\r\nOrigin: http://127.0.0.1:${port}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${declared}\r\n\r\n`,
    );
    socket.write(head);
    // A PNG's signature and header, so the file passes the type sniffing and the server keeps reading.
    socket.write(Buffer.from('89504e470d0a1a0a0000000d4948445200000100000001000806000000', 'hex'));
    socket.write(Buffer.alloc(256 * 1024, 1));
    // Time for the server to be inside the body before the connection goes.
    await new Promise((r) => setTimeout(r, 300));
    socket.destroy();
  }

  async function errorRowsAfter(upload: (port: number, cookie: string) => Promise<void>) {
    store = await createTestStore();
    await createAdmin(store, EMAIL, PASSWORD);
    await insertProducts(store.handle.db, [{ id: 'p1' }]);
    const logService = new LogService({ db: store.handle.db, limits: store.config.logs });
    app = await buildTestApp(store, { logService });
    const cookie = await loginCookie(app, EMAIL, PASSWORD);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    await upload(port, cookie);
    // The server notices the closed connection and finishes the request: wait until its log line is in.
    const deadline = Date.now() + 8_000;
    let rows: Array<{ level: string; message: string; details: string }> = [];
    for (;;) {
      await logService.flush();
      rows = await store.handle.db.selectFrom('logs').select(['level', 'message', 'details']).execute();
      if (rows.some((r) => /abort|interrupt|closed/i.test(r.message)) || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    return rows;
  }

  it.each([
    ['a product picture', '/api/admin/products/p1/media'],
    ['the banner', '/api/admin/settings/banner-image'],
  ])('%s: logged at info without a stack, not as an error', async (_what, url) => {
    const rows = await errorRowsAfter((port, cookie) => abortMidBody(port, url, cookie));
    expect(rows.filter((r) => r.level === 'error')).toEqual([]);
    const line = rows.find((r) => /abort|interrupt|closed/i.test(r.message));
    expect(line).toMatchObject({
      level: 'info',
      message: 'the client closed the connection before its request finished',
    });
    expect(line?.details).not.toContain('stack');
  });
});
