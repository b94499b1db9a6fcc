import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseConnectionLost } from '../../core/failures.js';
import { createThrowawayDatabase, type ThrowawayDatabase } from '../../test-support/postgres.js';
import { testEngine } from '../../test-support/test-store.js';
import { withOpsClient } from './pg-server.js';

describe.skipIf(testEngine !== 'postgres')('the operations connection', () => {
  let database: ThrowawayDatabase;
  let admin: pg.Client;
  beforeAll(async () => {
    database = await createThrowawayDatabase('store_ops_client');
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await database?.drop();
  });

  it('ended by the server between two queries, fails the next one instead of the process', async () => {
    const failure = await withOpsClient(database.url, async (client) => {
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
      // The server's notice of the end arrives while no query runs: the client's 'error' event.
      await new Promise((r) => setTimeout(r, 300));
      return client.query('SELECT 1').then(
        () => null,
        (error: unknown) => error,
      );
    });
    expect(isDatabaseConnectionLost(failure)).toBe(true);
  });
});
