import { describe, expect, it } from 'vitest';
import { isDatabaseBusy, isStorageFull } from './failures.js';

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

  it('leaves every other failure alone: a missing table, a unique violation, a plain error', () => {
    for (const code of ['42P01', '23505', 'SQLITE_ERROR', 'SQLITE_CONSTRAINT_UNIQUE']) {
      expect(isDatabaseBusy(failure(code)) || isStorageFull(failure(code)), code).toBe(false);
    }
    expect(isDatabaseBusy(new Error('plain'))).toBe(false);
  });
});
