import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureLog, T0, workerFor } from '../../../test-support/email-fixtures.js';
import { startTestSmtp, type TestSmtp } from '../../../test-support/smtp.js';
import {
  createAdmin,
  createTestStore,
  manualClock,
  SESSION_FACTS,
  type TestStore,
} from '../../../test-support/test-store.js';

/** An invitation goes out through the outbox to a real SMTP server; in demo mode its link is never logged. */
describe('an invitation email', () => {
  let store: TestStore;
  let smtp: TestSmtp;
  let invite: (email: string) => Promise<{ link: string }>;
  beforeEach(async () => {
    store = await createTestStore();
    smtp = await startTestSmtp();
    const id = await createAdmin(store, 'owner@shop.example', 'correct horse battery');
    const owner = { id, email: 'owner@shop.example', loginAt: T0, role: 'owner' as const, ...SESSION_FACTS };
    invite = (email) =>
      store.caller({ admin: owner }).admin.team.invite({ email, role: 'staff', send: true });
  });
  afterEach(async () => {
    await smtp.close();
    await store.cleanup();
  });

  it('reaches the invited address with the link, in its HTML and text', async () => {
    const { link } = await invite('packer@shop.example');
    const log = captureLog();
    const worker = workerFor(store, { env: { SMTP_URL: smtp.url }, clock: manualClock(T0), log: log.log });
    const stop = worker.start();
    try {
      worker.nudge();
      await worker.idle();
    } finally {
      await stop();
    }
    expect(smtp.recipients).toEqual([['packer@shop.example']]);
    const mail = smtp.received[0];
    expect(mail?.subject).toMatch(/^You are invited to the admin of /);
    expect(mail?.text).toContain(link);
    expect(mail?.html).toContain(link);
    expect(log.raw.join('\n')).not.toContain(link.split('#')[1]);
  });

  it('is not written to the log in demo mode, where other emails are', async () => {
    const { link } = await invite('packer@shop.example');
    const log = captureLog();
    const worker = workerFor(store, { clock: manualClock(T0), log: log.log });
    const stop = worker.start();
    try {
      worker.nudge();
      await worker.idle();
    } finally {
      await stop();
    }
    expect(log.events('email.demo')).toHaveLength(1);
    expect(log.raw.join('\n')).not.toContain(link.split('#')[1]);
  });
});
