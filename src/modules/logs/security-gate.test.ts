import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestStore, type TestStore } from '../../test-support/test-store.js';
import { LogService } from './log-service.js';
import { createLogStream, type LineSink } from './log-stream.js';
import { DEFAULT_SECURITY_LIMITS, SecurityGate } from './security-gate.js';

/**
 * The security gate between the logger and the application log table: refusals spaced out so that the
 * table's own folding (2 s) does not merge them still become a handful of rows, and what was kept out is
 * reported as one count. Lines are written as the logger writes them, into a real log table.
 */

const START = Date.parse('2026-11-22T10:00:00.000Z');
const MINUTE = 60_000;

describe('security events between the logger and the log table', () => {
  let store: TestStore;
  let logs: LogService;
  let nowMs: number;
  let stream: LineSink;

  beforeEach(async () => {
    store = await createTestStore();
    logs = new LogService({ db: store.handle.db, limits: store.config.logs });
    nowMs = START;
    stream = createLogStream({ service: logs, output: null, outputLevel: 'silent', now: () => nowMs });
  });
  afterEach(async () => {
    await logs.close();
    await store.cleanup();
  });

  /** One logger line at the current test time. */
  function log(event: string | null, msg: string, level = 40): void {
    stream.write(
      `${JSON.stringify({ level, time: nowMs, reqId: 'r1', ...(event ? { event } : {}), ip: '203.0.113.5', msg })}\n`,
    );
  }

  async function rows() {
    await logs.flush();
    return store.handle.db
      .selectFrom('logs')
      .select(['level', 'source', 'message', 'details', 'repeat_count'])
      .orderBy('id')
      .execute();
  }

  it('keeps a slow, steady flood (every 3 s, past the table folding) to the burst', async () => {
    for (let i = 0; i < 200; i++) {
      log('security.cross-site', 'refused a cross-site request');
      nowMs += 3000;
    }
    const table = await rows();
    expect(table).toHaveLength(DEFAULT_SECURITY_LIMITS.burst);
    expect(table.every((r) => r.source === 'security' && r.repeat_count === 1)).toBe(true);
  });

  it('reports what it kept out as one count, with the next entry once the limit allows one again', async () => {
    for (let i = 0; i < 50; i++) {
      log('security.unauthorized', 'refused an admin request without a valid session', 30);
      nowMs += 3000;
    }
    nowMs += 20 * MINUTE; // 3 an hour: one more after 20 minutes
    log('security.unauthorized', 'refused an admin request without a valid session', 30);
    const table = await rows();
    expect(table).toHaveLength(DEFAULT_SECURITY_LIMITS.burst + 2);
    const summary = table.at(-2);
    expect(summary).toMatchObject({
      level: 'warning',
      source: 'security',
      message:
        'refused an admin request without a valid session: 40 more not recorded one by one (too many in a short time)',
    });
    expect(JSON.parse(summary?.details ?? '{}')).toMatchObject({
      event: 'security.unauthorized',
      notRecorded: 40,
      from: new Date(START + 10 * 3000).toISOString(),
      to: new Date(START + 49 * 3000).toISOString(),
    });
    expect(table.at(-1)?.message).toBe('refused an admin request without a valid session');
  });

  it('reports the count with any later log line when the flood simply stops', async () => {
    for (let i = 0; i < 30; i++) log('security.cross-site', 'refused a cross-site request');
    nowMs += 20 * MINUTE;
    log(null, 'request completed', 30); // an access line: not for the table itself
    const table = await rows();
    expect(table).toHaveLength(2);
    expect(table[0]?.repeat_count).toBe(DEFAULT_SECURITY_LIMITS.burst);
    expect(table[1]?.message).toBe(
      'refused a cross-site request: 20 more not recorded one by one (too many in a short time)',
    );
  });

  it('limits each event on its own, and never other entries', async () => {
    for (let i = 0; i < 100; i++) log('security.cross-site', 'refused a cross-site request');
    log('security.unauthorized', 'refused an admin request without a valid session', 30);
    for (let i = 0; i < 100; i++) {
      log('admin.login.failed', `sign-in failed from 203.0.113.${i}`);
      nowMs += 3000;
    }
    const table = await rows();
    expect(table.filter((r) => r.message.startsWith('sign-in failed'))).toHaveLength(100);
    expect(
      table.filter((r) => r.message === 'refused an admin request without a valid session'),
    ).toHaveLength(1);
  });
});

describe('SecurityGate', () => {
  it('refills at perHour, up to the burst', () => {
    const gate = new SecurityGate({ burst: 2, perHour: 4 });
    const take = (ms: number) => gate.admit('security.x', ms).record;
    expect([take(0), take(0), take(0)]).toEqual([true, true, false]);
    expect(take(14 * MINUTE)).toBe(false);
    expect(take(16 * MINUTE)).toBe(true);
    expect(take(10 * 60 * MINUTE)).toBe(true);
    expect(take(10 * 60 * MINUTE)).toBe(true);
    expect(take(10 * 60 * MINUTE)).toBe(false);
  });
});
