import { describe, expect, it } from 'vitest';
import { DEFAULT_GATE_LIMITS, GateRefusedError, PublicCallGate } from './public-call-gate.js';

/** Busy work on the thread, as a synchronous SQLite query is. */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // burning the thread on purpose
  }
}

describe('the public query gate', () => {
  it('runs calls that wait on the database side by side up to its concurrency, one at a time by default', async () => {
    const overlap = async (concurrency: number) => {
      const gate = new PublicCallGate({
        ...DEFAULT_GATE_LIMITS,
        burstMs: Number.POSITIVE_INFINITY,
        concurrency,
      });
      let running = 0;
      let most = 0;
      const order: number[] = [];
      await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          gate.run('198.51.100.1', async () => {
            running += 1;
            most = Math.max(most, running);
            // Waiting for the server, as a PostgreSQL query does: the thread is free meanwhile.
            await new Promise((resolve) => setTimeout(resolve, 5));
            order.push(i);
            running -= 1;
          }),
        ),
      );
      return { most, order };
    };
    expect(await overlap(1)).toEqual({ most: 1, order: [0, 1, 2, 3, 4, 5] });
    expect((await overlap(3)).most).toBe(3);
    // Refused calls give their place back: the gate keeps going. Up to `concurrency` calls may start on the
    // last of a budget; the rest are refused.
    const gate = new PublicCallGate({ ...DEFAULT_GATE_LIMITS, burstMs: 1, concurrency: 2 });
    const answers = await Promise.allSettled(
      Array.from({ length: 5 }, () => gate.run('198.51.100.9', async () => 'ok')),
    );
    expect(answers.map((a) => a.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'rejected',
      'rejected',
    ]);
    expect(await gate.run('198.51.100.7', async () => 'next')).toBe('next');
    expect(
      await new PublicCallGate({ ...DEFAULT_GATE_LIMITS, concurrency: 2 }).run('198.51.100.8', async () => 1),
    ).toBe(1);
  });

  it('runs quick calls back to back for a slice of time, then lets the event loop turn', async () => {
    let t = 0;
    const gate = new PublicCallGate(
      { ...DEFAULT_GATE_LIMITS, burstMs: Number.POSITIVE_INFINITY, sliceMs: 2 },
      () => t,
    );
    const order: string[] = [];
    const calls = Array.from({ length: 10 }, (_, i) =>
      gate.run('198.51.100.1', async () => {
        order.push(`call ${i}`);
        t += 0.5; // each call holds the thread half a millisecond
      }),
    );
    const other = new Promise<void>((resolve) =>
      setImmediate(() => {
        order.push('other');
        resolve();
      }),
    );
    await Promise.all(calls);
    await other;
    // Four calls fill the first slice; the fifth waits for the loop, which runs the other work first.
    expect(order.slice(0, 6)).toEqual(['call 0', 'call 1', 'call 2', 'call 3', 'other', 'call 4']);
    expect(order.filter((o) => o.startsWith('call'))).toEqual(
      Array.from({ length: 10 }, (_, i) => `call ${i}`),
    );
  });

  it('runs a burst one call per turn of the event loop when each call takes a slice, so other work gets in between', async () => {
    const gate = new PublicCallGate({ ...DEFAULT_GATE_LIMITS, burstMs: Number.POSITIVE_INFINITY });
    const order: string[] = [];
    const calls = Array.from({ length: 5 }, (_, i) =>
      gate.run('198.51.100.1', async () => {
        order.push(`call ${i}`);
        spin(2);
        return i;
      }),
    );
    // Something else the process has to do (a health check's I/O), arriving while the burst waits.
    const other = new Promise<void>((resolve) =>
      setImmediate(() => {
        order.push('other');
        resolve();
      }),
    );
    expect(await Promise.all(calls)).toEqual([0, 1, 2, 3, 4]);
    await other;
    expect(order.indexOf('other')).toBeLessThan(order.indexOf('call 4'));
    expect(order.filter((o) => o.startsWith('call'))).toEqual([
      'call 0',
      'call 1',
      'call 2',
      'call 3',
      'call 4',
    ]);
  });

  it('charges an address for the time its calls take and refuses it once spent, not other addresses', async () => {
    let t = 0;
    const gate = new PublicCallGate(
      { ...DEFAULT_GATE_LIMITS, burstMs: 100, refillMsPerSecond: 10, minChargeMs: 5 },
      () => t,
    );
    const slow = () =>
      gate.run('198.51.100.1', async () => {
        t += 40;
      });
    await slow();
    await slow();
    await slow(); // 120 ms spent of 100
    const refused = await slow().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GateRefusedError);
    expect((refused as GateRefusedError).refusal).toEqual({ kind: 'rate', retryAfterSeconds: 3 });
    expect((refused as GateRefusedError).retryAfterSeconds).toBe(3);
    // Another shopper is not held back by the first one's spending.
    await expect(gate.run('198.51.100.2', async () => 'ok')).resolves.toBe('ok');
    // Time earns the budget back.
    t += 5_000;
    await expect(slow()).resolves.toBeUndefined();
  });

  it('a parallel burst cannot all pass on a full budget: each call is checked in its turn', async () => {
    let t = 0;
    const gate = new PublicCallGate(
      { ...DEFAULT_GATE_LIMITS, burstMs: 100, refillMsPerSecond: 1, minChargeMs: 5 },
      () => t,
    );
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        gate.run('198.51.100.1', async () => {
          t += 30;
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(4);
  });

  it('refuses a call that waited too long for its turn, and new calls when too many wait', async () => {
    let t = 0;
    const gate = new PublicCallGate(
      { ...DEFAULT_GATE_LIMITS, burstMs: Number.POSITIVE_INFINITY, maxWaitMs: 100, maxQueued: 3 },
      () => t,
    );
    const first = gate.run('198.51.100.1', async () => {
      t += 500; // a slow call: the ones behind it have waited 500 ms when their turn comes
    });
    const second = gate.run('198.51.100.2', async () => 'too late');
    const third = gate.run('198.51.100.3', async () => 'too late');
    const fourth = gate.run('198.51.100.4', async () => 'no room');
    await expect(fourth).rejects.toMatchObject({ refusal: { kind: 'busy', reason: 'queue' } });
    await first;
    await expect(second).rejects.toMatchObject({ refusal: { kind: 'busy', reason: 'wait' } });
    await expect(third).rejects.toMatchObject({ refusal: { kind: 'busy', reason: 'wait' } });
    // The queue is free again.
    await expect(gate.run('198.51.100.5', async () => 'ok')).resolves.toBe('ok');
  });
});
