import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { databaseFile, openDatabase } from '../../db/connect.js';
import type { Db } from '../../db/database.js';
import { openPostgres } from '../../db/postgres/connect-postgres.js';
import {
  captureLog,
  queueConfirmation,
  seedOrder,
  T0,
  workerFor,
} from '../../test-support/email-fixtures.js';
import { SMTP_PASSWORD, startTestSmtp, type TestSmtp } from '../../test-support/smtp.js';
import {
  buildTestApp,
  createTestStore,
  manualClock,
  SESSION_FACTS,
  type TestStore,
} from '../../test-support/test-store.js';
import { CLAIM_MS } from './mail-worker.js';
import {
  claimNextEmail,
  emailsOfOrder,
  enqueueEmail,
  INVALID_RECIPIENT,
  NO_MAIL_SERVER,
  settleAttempt,
} from './outbox.repository.js';
import { MAX_ATTEMPTS } from './retry-policy.js';

const admin = { id: 1, email: 'owner@shop.example', loginAt: T0, role: 'owner' as const, ...SESSION_FACTS };

/** Another connection to the store's database, as a second process on it would have. */
function secondConnection(store: TestStore): { db: Db; close(): Promise<void> } {
  if (store.engine === 'sqlite') {
    const handle = openDatabase(databaseFile(store.dir));
    return { db: handle.db, close: () => handle.close() };
  }
  const handle = openPostgres(store.postgresUrl ?? '', 4);
  return { db: handle.db, close: () => handle.close() };
}

describe(`the email outbox on a real SMTP server (${process.env.TEST_DATABASE ?? 'sqlite'})`, () => {
  let store: TestStore;
  let smtp: TestSmtp;
  beforeEach(async () => {
    store = await createTestStore();
    smtp = await startTestSmtp();
    await seedOrder(store.handle.db);
  });
  afterEach(async () => {
    await smtp.close();
    await store.cleanup();
  });

  it('sends a nudged email with its From, To, Reply-To, Subject, HTML and text parts, and records it as sent', async () => {
    const clock = manualClock(T0);
    const log = captureLog();
    const worker = workerFor(store, { env: { SMTP_URL: smtp.url }, clock, log: log.log });
    const stop = worker.start();
    try {
      await worker.idle();
      const id = await queueConfirmation(store.handle.db);
      worker.nudge();
      await worker.idle();

      expect(smtp.received).toHaveLength(1);
      const mail = smtp.received[0];
      expect(mail?.from?.value).toEqual([{ name: 'Zari & Co', address: 'no-reply@shop.example' }]);
      expect(mail?.to).toMatchObject({ value: [{ address: 'amina@example.com' }] });
      expect(mail?.replyTo?.value).toEqual([{ name: '', address: 'help@zari.example' }]);
      expect(mail?.subject).toBe('Order #1042 confirmed — Zari & Co');
      expect(mail?.headers.get('auto-submitted')).toBe('auto-generated');
      expect(mail?.html).toContain('<html lang="en"');
      expect(mail?.html).toContain('Zari &amp; Co');
      expect(mail?.html).toContain('$118.99');
      expect(mail?.text).toContain('Total paid: $118.99');
      expect(mail?.text).toContain('View your order: https://shop.example/order/ord_1?token=abc123');
      expect(smtp.recipients[0]).toEqual(['amina@example.com']);

      const [entry] = await emailsOfOrder(store.handle.db, 'ord_1');
      expect(entry).toMatchObject({ id, status: 'sent', attempts: 1, lastError: null, nextAttemptAt: null });
      expect(entry?.sentAt).toBe(T0);

      const sent = log.events('email.sent');
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({
        emailId: id,
        kind: 'order_confirmation',
        orderId: 'ord_1',
        server: '127.0.0.1',
      });
      // The log names the server's host, never the URL's password, and never the body.
      const everything = log.raw.join('\n');
      expect(everything).not.toContain(SMTP_PASSWORD);
      expect(everything).not.toContain(encodeURIComponent(SMTP_PASSWORD));
      expect(everything).not.toContain('Total paid');
    } finally {
      await stop();
    }
  });

  it('is held by the app: idle until main.ts starts it, sending on a nudge after, stopped when the app closes', async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: store.dir,
      LOG_LEVEL: 'silent',
      SMTP_URL: smtp.url,
    });
    const app = await buildTestApp(store, { config, clock: manualClock(T0) });
    try {
      expect(app.mailWorker.server).toBe('127.0.0.1');
      await queueConfirmation(store.handle.db);
      app.mailWorker.nudge();
      await app.mailWorker.idle();
      expect(smtp.received).toHaveLength(0);
      app.mailWorker.start();
      await app.mailWorker.idle();
      expect(smtp.received).toHaveLength(1);
    } finally {
      await app.close();
    }
    await queueConfirmation(store.handle.db, { number: 1043 });
    app.mailWorker.nudge();
    await app.mailWorker.idle();
    expect(smtp.received).toHaveLength(1);
  });

  it('keeps an email refused with a 4xx queued with the reason and its next attempt, and sends it on a later attempt', async () => {
    smtp.mode = 'tempfail';
    const clock = manualClock(T0);
    const log = captureLog();
    const worker = workerFor(store, { env: { SMTP_URL: smtp.url }, clock, log: log.log });
    await queueConfirmation(store.handle.db);

    expect(await worker.runOnce()).toEqual({ sent: 0, retrying: 1, failed: 0, unsendable: 0 });
    let [entry] = await emailsOfOrder(store.handle.db, 'ord_1');
    expect(entry?.status).toBe('queued');
    expect(entry?.attempts).toBe(1);
    expect(entry?.lastError).toContain('451');
    expect(entry?.lastError).toContain('try again later');
    expect(entry?.nextAttemptAt).toBe('2026-11-25T10:01:00.000Z');
    expect(log.events('email.retry')[0]).toMatchObject({ nextAttemptAt: '2026-11-25T10:01:00.000Z' });

    // Not due yet: nothing is tried.
    clock.advance(59_000);
    expect(await worker.runOnce()).toEqual({ sent: 0, retrying: 0, failed: 0, unsendable: 0 });
    clock.advance(1_000);
    expect((await worker.runOnce()).retrying).toBe(1);
    [entry] = await emailsOfOrder(store.handle.db, 'ord_1');
    // The wait doubles: two minutes after the second attempt.
    expect(entry).toMatchObject({ attempts: 2, nextAttemptAt: '2026-11-25T10:03:00.000Z' });

    // The server has recovered, and the email goes out when it comes due.
    smtp.mode = 'accept';
    clock.advance(120_000);
    expect((await worker.runOnce()).sent).toBe(1);
    [entry] = await emailsOfOrder(store.handle.db, 'ord_1');
    expect(entry).toMatchObject({
      status: 'sent',
      attempts: 3,
      lastError: null,
      sentAt: '2026-11-25T10:03:00.000Z',
    });
    expect(smtp.received).toHaveLength(1);
  });

  it('retries a server that cannot be reached, an hour apart at most, and gives up after the last attempt', async () => {
    const closed = await startTestSmtp();
    const url = closed.url;
    await closed.close();
    const clock = manualClock(T0);
    const worker = workerFor(store, { env: { SMTP_URL: url }, clock, log: captureLog().log });
    await queueConfirmation(store.handle.db);

    const waits: number[] = [];
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      expect((await worker.runOnce()).retrying).toBe(1);
      const [entry] = await emailsOfOrder(store.handle.db, 'ord_1');
      expect(entry?.status).toBe('queued');
      expect(entry?.lastError).toMatch(/ECONNREFUSED|connect/i);
      const wait = new Date(entry?.nextAttemptAt ?? 0).getTime() - clock.now().getTime();
      waits.push(wait / 60_000);
      clock.advance(wait);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60]);
    expect((await worker.runOnce()).failed).toBe(1);
    const [entry] = await emailsOfOrder(store.handle.db, 'ord_1');
    expect(entry?.status).toBe('failed');
    expect(entry?.attempts).toBe(MAX_ATTEMPTS);
    expect(entry?.lastError).toMatch(/^gave up after 10 attempts: /);
    expect(entry?.nextAttemptAt).toBeNull();
  });

  it('fails an email whose recipient the server rejects with a 5xx, and the admin resends it once the server takes it', async () => {
    smtp.mode = 'reject';
    const clock = manualClock(T0);
    const log = captureLog();
    const worker = workerFor(store, { env: { SMTP_URL: smtp.url }, clock, log: log.log });
    const id = await queueConfirmation(store.handle.db);

    expect((await worker.runOnce()).failed).toBe(1);
    let [entry] = await emailsOfOrder(store.handle.db, 'ord_1');
    expect(entry?.status).toBe('failed');
    expect(entry?.attempts).toBe(1);
    expect(entry?.lastError).toMatch(/^rejected: 550 .*no such mailbox/);
    expect(entry?.nextAttemptAt).toBeNull();
    expect(log.events('email.failed')[0]).toMatchObject({ emailId: id, reason: entry?.lastError });
    // A failed email is not tried again on its own.
    clock.advance(24 * 3_600_000);
    expect(await worker.runOnce()).toEqual({ sent: 0, retrying: 0, failed: 0, unsendable: 0 });

    smtp.mode = 'accept';
    const stop = worker.start();
    try {
      await worker.idle();
      const caller = store.caller({ admin, mail: worker, log: log.log, clock });
      const listed = await caller.admin.emails.list({ orderId: 'ord_1' });
      expect(listed.items).toMatchObject([{ id, status: 'failed', orderId: 'ord_1', orderNumber: 1001 }]);
      expect(await caller.admin.emails.list({ status: 'sent' })).toMatchObject({ items: [] });

      await caller.admin.emails.resend({ id });
      await worker.idle();
      [entry] = await emailsOfOrder(store.handle.db, 'ord_1');
      expect(entry).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
      expect(smtp.received).toHaveLength(1);

      // A sent email can be sent again (the customer lost it).
      clock.advance(60_000);
      await caller.admin.emails.resend({ id });
      await worker.idle();
      expect(smtp.received).toHaveLength(2);
      [entry] = await emailsOfOrder(store.handle.db, 'ord_1');
      expect(entry).toMatchObject({ status: 'sent', attempts: 1, sentAt: '2026-11-26T10:01:00.000Z' });
      expect(log.events('email.resend')).toHaveLength(2);
      expect(log.events('email.resend')[0]).toMatchObject({
        emailId: id,
        was: 'failed',
        account: admin.email,
      });

      await expect(caller.admin.emails.resend({ id: 'eml_none' })).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    } finally {
      await stop();
    }
  });

  it('gives one email to exactly one of many claims racing for it from two connections', async () => {
    const id = await queueConfirmation(store.handle.db);
    const other = secondConnection(store);
    try {
      const now = new Date(T0);
      const claims = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          claimNextEmail(i % 2 === 0 ? store.handle.db : other.db, {
            holder: `P${i}`,
            now,
            claimMs: CLAIM_MS,
          }),
        ),
      );
      const won = claims.filter((c) => c !== null);
      expect(won).toHaveLength(1);
      expect(won[0]).toMatchObject({ id, attempts: 1 });
    } finally {
      await other.close();
    }
  });

  it('never sends an email twice from two workers on one database, and takes over a claim whose process died', async () => {
    for (let i = 0; i < 12; i++)
      await queueConfirmation(store.handle.db, { number: 2000 + i, to: `buyer${i}@example.com` });
    const other = secondConnection(store);
    try {
      const clock = manualClock(T0);
      const a = workerFor(store, { env: { SMTP_URL: smtp.url }, clock, log: captureLog().log, holder: 'A' });
      const b = workerFor(store, {
        db: other.db,
        env: { SMTP_URL: smtp.url },
        clock,
        log: captureLog().log,
        holder: 'B',
      });
      const [ra, rb] = await Promise.all([a.runOnce(), b.runOnce()]);
      expect(ra.sent + rb.sent).toBe(12);
      expect(smtp.received).toHaveLength(12);
      const subjects = smtp.received.map((m) => m.subject);
      expect(new Set(subjects).size).toBe(12);
      const entries = await emailsOfOrder(store.handle.db, 'ord_1');
      expect(entries.every((e) => e.status === 'sent' && e.attempts === 1)).toBe(true);

      // A process claims an email and dies before sending it: the claim holds until it runs out.
      const id = await queueConfirmation(store.handle.db, { number: 3000, now: clock.now() });
      const dead = await claimNextEmail(store.handle.db, {
        holder: 'dead',
        now: clock.now(),
        claimMs: CLAIM_MS,
      });
      expect(dead?.id).toBe(id);
      clock.advance(CLAIM_MS - 1);
      expect((await a.runOnce()).sent).toBe(0);
      clock.advance(1);
      expect((await b.runOnce()).sent).toBe(1);
      const taken = (await emailsOfOrder(store.handle.db, 'ord_1')).find((e) => e.id === id);
      expect(taken).toMatchObject({ status: 'sent', attempts: 2 });
      // The dead process's late word changes nothing.
      expect(
        await settleAttempt(store.handle.db, {
          id,
          holder: 'dead',
          now: clock.now(),
          outcome: { status: 'failed', lastError: 'late' },
        }),
      ).toBe(false);
      expect(smtp.received).toHaveLength(13);
    } finally {
      await other.close();
    }
  });
});

describe(`the email outbox without a mail server (${process.env.TEST_DATABASE ?? 'sqlite'})`, () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await createTestStore();
    await seedOrder(store.handle.db);
  });
  afterEach(async () => store.cleanup());

  it('keeps emails queued with the reason, prints them in demo mode once, and sends them once SMTP_URL is set', async () => {
    const clock = manualClock(T0);
    const log = captureLog();
    const demo = workerFor(store, { clock, log: log.log });
    const id = await queueConfirmation(store.handle.db);

    expect(await demo.runOnce()).toEqual({ sent: 0, retrying: 0, failed: 0, unsendable: 1 });
    const [entry] = await emailsOfOrder(store.handle.db, 'ord_1');
    expect(entry).toMatchObject({ id, status: 'queued', attempts: 0, lastError: NO_MAIL_SERVER });
    const printed = log.events('email.demo');
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatchObject({
      emailId: id,
      to: 'amina@example.com',
      subject: 'Order #1042 confirmed — Zari & Co',
    });
    expect(printed[0]?.text).toContain('View your order: https://shop.example/order/ord_1?token=abc123');
    expect(printed[0]?.text).toContain('Total paid: $118.99');

    // Not a loop: the email is noted once, however often the worker looks.
    clock.advance(3_600_000);
    expect((await demo.runOnce()).unsendable).toBe(0);
    expect(log.events('email.demo')).toHaveLength(1);

    // With real payments (a Stripe key) the body is not printed: a warning names the email.
    const paidLog = captureLog();
    const live = workerFor(store, { env: { STRIPE_SECRET_KEY: 'sk_test_abc123' }, clock, log: paidLog.log });
    await queueConfirmation(store.handle.db, { number: 1043 });
    expect((await live.runOnce()).unsendable).toBe(1);
    expect(paidLog.events('email.unsent')).toHaveLength(1);
    expect(paidLog.raw.join('\n')).not.toContain('Total paid');

    // The store restarts with SMTP_URL: what waited goes out.
    const smtp = await startTestSmtp();
    try {
      const configured = workerFor(store, { env: { SMTP_URL: smtp.url }, clock, log: captureLog().log });
      const stop = configured.start();
      await configured.idle();
      await stop();
      expect(smtp.received.map((m) => m.subject).sort()).toEqual([
        'Order #1042 confirmed — Zari & Co',
        'Order #1043 confirmed — Zari & Co',
      ]);
      const entries = await emailsOfOrder(store.handle.db, 'ord_1');
      expect(entries.map((e) => [e.status, e.lastError])).toEqual([
        ['sent', null],
        ['sent', null],
      ]);
    } finally {
      await smtp.close();
    }
  });

  it('queues with the change that caused it: a rolled-back transaction leaves no email', async () => {
    const failing = store.handle.db.transaction().execute(async (trx) => {
      await enqueueEmail(
        trx,
        {
          kind: 'order_shipped',
          orderId: 'ord_1',
          to: 'a@example.com',
          subject: 'S',
          html: '<p>h</p>',
          text: 't',
        },
        new Date(T0),
      );
      throw new Error('the shipment could not be saved');
    });
    await expect(failing).rejects.toThrow('the shipment could not be saved');
    expect(await emailsOfOrder(store.handle.db, 'ord_1')).toEqual([]);
  });

  it('stores an email to an address that is not one as failed, without failing the caller', async () => {
    const id = await queueConfirmation(store.handle.db, { to: 'not an address' });
    const [entry] = await emailsOfOrder(store.handle.db, 'ord_1');
    expect(entry).toMatchObject({ id, status: 'failed', attempts: 0, lastError: INVALID_RECIPIENT });
    // Sizes past the limits are the caller's bug, and refused.
    await expect(
      enqueueEmail(
        store.handle.db,
        {
          kind: 'order_refund',
          orderId: null,
          to: 'a@example.com',
          subject: 'S',
          html: 'x'.repeat(200_001),
          text: 't',
        },
        new Date(T0),
      ),
    ).rejects.toThrow();
  });

  it('nudges from a request do nothing before the worker starts, and never throw', async () => {
    const worker = workerFor(store, { clock: manualClock(T0), log: captureLog().log });
    await queueConfirmation(store.handle.db);
    worker.nudge();
    await worker.idle();
    const [entry] = await emailsOfOrder(store.handle.db, 'ord_1');
    expect(entry?.lastError).toBeNull();
    await worker.stop();
    expect(() => worker.nudge()).not.toThrow();
  });
});
