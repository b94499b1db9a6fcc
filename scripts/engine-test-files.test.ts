import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { choosesEngine, engineTestFiles } from './engine-test-files';

const root = path.resolve(import.meta.dirname, '..');
const at = (file: string) => path.join(root, file);

describe('the test files the PostgreSQL run repeats', () => {
  it('takes a file that makes its store through the test support, and leaves a pure one', () => {
    expect(choosesEngine(at('src/app.test.ts'))).toBe(true);
    expect(choosesEngine(at('src/modules/stock/back-in-stock-sent.test.ts'))).toBe(true);
    expect(choosesEngine(at('src/shared/money.test.ts'))).toBe(false);
    expect(choosesEngine(at('client/src/import-rules.test.ts'))).toBe(false);
  });

  it('rests on the store never reading TEST_DATABASE itself: only test code chooses the engine', () => {
    const storeCode = readdirSync(at('src'), { recursive: true, encoding: 'utf8' }).filter(
      (name) =>
        /\.tsx?$/.test(name) && !name.includes('.test.') && !name.split(path.sep).includes('test-support'),
    );
    expect(storeCode.length).toBeGreaterThan(100);
    const readers = storeCode.filter((name) =>
      readFileSync(at(path.join('src', name)), 'utf8').includes('TEST_DATABASE'),
    );
    expect(readers).toEqual([]);
  });

  it('repeats most files, not all', () => {
    const files = engineTestFiles(['src', 'client/src', 'scripts']);
    expect(files).toContain(path.join('src', 'app.test.ts'));
    expect(files).not.toContain(path.join('src', 'shared', 'money.test.ts'));
    expect(files.length).toBeGreaterThan(100);
  });
});
