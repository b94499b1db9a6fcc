import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { startLoopDelayMonitor } from '../ops/event-loop-delay.js';

/**
 * GET /metrics in Prometheus' text format for one collector (a Prometheus server, the bench, the soak),
 * with `Authorization: Bearer <METRICS_TOKEN>`. Without METRICS_TOKEN the route does not exist: what the
 * process is doing is nobody's business by default. The event-loop delay is a summary since the previous
 * scrape (as prom-client's), so each scrape tells whether anything stalled the server thread in between.
 */
export function registerMetrics(app: FastifyInstance, opts: { token: string | null }): void {
  const token = opts.token;
  if (!token) return;
  const loop = startLoopDelayMonitor();
  app.addHook('onClose', async () => loop.stop());
  const expected = digest(token);

  app.get('/metrics', async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const given = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (!timingSafeEqual(digest(given), expected)) {
      return reply.code(401).header('www-authenticate', 'Bearer').send({ error: 'Unauthorized' });
    }
    const d = loop.read();
    const memory = process.memoryUsage();
    const s = (ms: number) => String(ms / 1000);
    const lines = [
      '# HELP store_event_loop_delay_seconds How long callbacks waited for the server thread since the last scrape.',
      '# TYPE store_event_loop_delay_seconds summary',
      `store_event_loop_delay_seconds{quantile="0.5"} ${s(d.p50Ms)}`,
      `store_event_loop_delay_seconds{quantile="0.99"} ${s(d.p99Ms)}`,
      `store_event_loop_delay_seconds_count ${d.samples}`,
      `store_event_loop_delay_seconds_sum ${s(d.meanMs * d.samples)}`,
      '# HELP store_event_loop_delay_max_seconds The longest wait for the server thread since the last scrape.',
      '# TYPE store_event_loop_delay_max_seconds gauge',
      `store_event_loop_delay_max_seconds ${s(d.maxMs)}`,
      '# HELP process_resident_memory_bytes Resident memory size in bytes.',
      '# TYPE process_resident_memory_bytes gauge',
      `process_resident_memory_bytes ${memory.rss}`,
      '# HELP nodejs_heap_used_bytes V8 heap in use, in bytes.',
      '# TYPE nodejs_heap_used_bytes gauge',
      `nodejs_heap_used_bytes ${memory.heapUsed}`,
      '# HELP process_uptime_seconds Seconds since the process started.',
      '# TYPE process_uptime_seconds gauge',
      `process_uptime_seconds ${Math.round(process.uptime())}`,
    ];
    return reply.type('text/plain; version=0.0.4; charset=utf-8').send(`${lines.join('\n')}\n`);
  });
}

/** Same-length values for timingSafeEqual, whatever was sent. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
