import { describe, expect, it } from 'vitest';
import { isDatabaseBusy, isDatabaseConnectionLost, isStorageFull } from './failures.js';

const failure = (code: string, wrapped = false): Error => {
  const error = Object.assign(new Error(`failed with ${code}`), { code });
  return wrapped ? new Error('the module that met it', { cause: error }) : error;
};

describe('failures that are not the request fault', () => {
  it('counts a lock not granted in time as busy on both engines, also when a module wrapped it', () => {
    for (const code of ['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', '55P03', '40001', '40P01', '53300', '57P03']) {
      expect(isDatabaseBusy(failure(code)), code).toBe(true);
      expect(isDatabaseBusy(failure(code, true)), `${code} wrapped`).toBe(true);
      expect(isStorageFull(failure(code)), code).toBe(false);
    }
  });

  it('counts a full disk as full on both engines', () => {
    for (const code of ['ENOSPC', 'EDQUOT', 'EFBIG', 'SQLITE_FULL', '53100']) {
      expect(isStorageFull(failure(code)), code).toBe(true);
      expect(isDatabaseBusy(failure(code)), code).toBe(false);
    }
  });

  it('counts a connection the server ended or refused as lost, and so busy: a 503 to retry', () => {
    for (const code of ['57P01', '57P02', '57P03', '08000', '08003', '08006', 'ECONNRESET', 'ECONNREFUSED']) {
      expect(isDatabaseConnectionLost(failure(code, true)), code).toBe(true);
      expect(isDatabaseBusy(failure(code)), code).toBe(true);
    }
    // What the pg driver throws without a code: the end of the socket, and a later query on that client.
    for (const message of [
      'Connection terminated unexpectedly',
      'Client has encountered a connection error and is not queryable',
    ]) {
      expect(isDatabaseBusy(new Error(message)), message).toBe(true);
      expect(isDatabaseBusy(new Error('wrapped', { cause: new Error(message) })), message).toBe(true);
    }
    expect(isDatabaseConnectionLost(failure('55P03'))).toBe(false);
  });

  it('leaves every other failure alone: a missing table, a unique violation, a plain error', () => {
    for (const code of ['42P01', '23505', 'SQLITE_ERROR', 'SQLITE_CONSTRAINT_UNIQUE']) {
      expect(isDatabaseBusy(failure(code)) || isStorageFull(failure(code)), code).toBe(false);
    }
    expect(isDatabaseBusy(new Error('plain'))).toBe(false);
  });
});
