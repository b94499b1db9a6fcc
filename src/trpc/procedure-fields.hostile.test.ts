import { afterAll, beforeAll, beforeEach, describe, it } from 'vitest';
import {
  everyFieldWithEveryHostileValue,
  type HostileHarness,
  hostileHarness,
  proceduresWithFields,
} from '../test-support/hostile-input.js';

/**
 * Every field of every public tRPC procedure's input (found by reading its Zod schema, none listed by hand),
 * set in turn to each hostile value (wrong types, NUL, unpaired surrogates, control characters, FTS and SQL
 * syntax, 100k strings, 5000-item arrays, deep nesting, __proto__ keys) inside an otherwise good input that
 * reaches the procedure's code: never a 5xx, and a value the field refuses is reported against that field.
 * Public and admin procedures are in two files so each finishes in time on a small machine.
 */

/**
 * Cases whose work does not fit the default 20 s. Hostile emails and passwords that pass validation are
 * checked against the full-cost dummy hash (scrypt, 128 MiB: an unknown account costs what a real one does):
 * eight scrypt runs with computing that hash, a few seconds on a quiet machine, 30 to 40 s measured on a
 * busy 2-core one (3 to 5 s each).
 */
const BOUND_MS: Record<string, number> = { 'auth.login': 120_000 };

describe('every field of every public tRPC input with hostile values', () => {
  let h: HostileHarness;
  beforeAll(async () => {
    h = await hostileHarness();
  });
  beforeEach(async () => h.restoreFixtures());
  afterAll(async () => h.close());

  for (const call of proceduresWithFields.filter((p) => !p.path.startsWith('admin.'))) {
    it(call.path, () => everyFieldWithEveryHostileValue(h, call), BOUND_MS[call.path]);
  }
});
