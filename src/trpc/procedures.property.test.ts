import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, it } from 'vitest';
import {
  arbitraryFor,
  expectClearAnswer,
  type HostileHarness,
  hostileHarness,
  type Procedure,
  procedures,
  type Schema,
} from '../test-support/hostile-input.js';

/**
 * Generated inputs for every tRPC procedure with an input, shaped by its own Zod schema (fields missing,
 * strings of any code points at and past their limits, numbers at the edges, wrong types mixed in): the
 * answer over HTTP is always a success or a 4xx with a message, never a 5xx.
 */

/** Sign-ins verify a password hash per call (slow on purpose), so they get fewer runs than the rest. */
const RUNS: Record<string, number> = { 'auth.login': 8 };
/**
 * Up to nine full-cost scrypt runs (128 MiB each: the dummy hash, then one per generated sign-in that passes
 * validation, all unknown accounts): about 3 s on a quiet machine, 3 to 5 s EACH on a busy 2-core one, past
 * the default 20 s. The bound is the work's.
 */
const BOUND_MS: Record<string, number> = { 'auth.login': 120_000 };
const DEFAULT_RUNS = 25;

const withInput = procedures.filter(
  (p): p is Procedure & { input: Schema } => p.input !== null && p.path !== 'admin.account.signOutEverywhere',
);

describe('generated inputs for every tRPC procedure', () => {
  let h: HostileHarness;
  beforeAll(async () => {
    h = await hostileHarness();
  });
  beforeEach(async () => h.restoreFixtures());
  afterAll(async () => h.close());

  for (const call of withInput) {
    it(
      `${call.path} never answers a generated input with a 5xx`,
      async () => {
        await fc.assert(
          fc.asyncProperty(arbitraryFor(call.input), async (input) => {
            const res = await h.send(call, input);
            expectClearAnswer(res, `${call.path} ${JSON.stringify(input).slice(0, 300)}`);
          }),
          { numRuns: RUNS[call.path] ?? DEFAULT_RUNS },
        );
      },
      BOUND_MS[call.path],
    );
  }
});
