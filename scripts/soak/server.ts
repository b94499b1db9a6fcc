/**
 * The store as the soak runs it: the production build on the soak's data folder, with an admin the steps
 * sign in as and no per-address limits.
 */
import { BENCH_METRICS_TOKEN } from '../bench/loop-delay.js';
import { type ServerProcess, startServer } from '../launcher/server.js';

export const ADMIN_EMAIL = 'soak-owner@shop.example';
export const ADMIN_PASSWORD = 'soak-password-not-secret-1';

export type RunningServer = ServerProcess;

export function startSoakServer(opts: {
  dataDir: string;
  port: number;
  env?: Record<string, string>;
}): Promise<RunningServer> {
  return startServer({
    entry: 'dist',
    dataDir: opts.dataDir,
    port: opts.port,
    env: {
      DEMO_CATALOGUE: 'false',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      LOGIN_MAX_ATTEMPTS_PER_IP: '100000',
      // Every simulated shopper comes from 127.0.0.1: per-address budgets would treat them as one.
      PUBLIC_QUERY_MS_PER_SECOND: '0',
      CHECKOUTS_PER_IP: '100000',
      // The load step reads the event-loop delay from /metrics.
      METRICS_TOKEN: BENCH_METRICS_TOKEN,
      ...opts.env,
    },
  });
}
