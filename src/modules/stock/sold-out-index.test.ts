import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestStore, type TestStore, testEngine } from '../../test-support/test-store.js';
import { sizeSoldOut } from './sold-out.js';

/** A condition as text to compare: no identifier quotes, no outer parentheses (PostgreSQL adds them), one space. */
function plain(condition: string): string {
  let text = condition.replaceAll('"', '').replace(/\s+/g, ' ').trim();
  while (text.startsWith('(') && text.endsWith(')')) text = text.slice(1, -1).trim();
  return text.toLowerCase();
}

describe('the sold-out rule', () => {
  let store: TestStore;
  afterEach(async () => store.cleanup());

  // A query uses a partial index only when its WHERE implies the index's: were the rule in code to change
  // and the migration's index not (or the reverse), every sold-out query would quietly scan size_stock.
  it('is the WHERE of the partial index size_stock_sold_out on the migrated database', async () => {
    store = await createTestStore();
    const db = store.handle.db;
    const found =
      testEngine === 'postgres'
        ? await sql<{ definition: string }>`SELECT indexdef AS definition FROM pg_indexes
            WHERE indexname = 'size_stock_sold_out'`.execute(db)
        : await sql<{ definition: string }>`SELECT sql AS definition FROM sqlite_master
            WHERE type = 'index' AND name = 'size_stock_sold_out'`.execute(db);
    expect(found.rows).toHaveLength(1);
    const where = /\bWHERE\b([\s\S]*)$/i.exec(found.rows[0]?.definition ?? '')?.[1] ?? '';
    expect(plain(where)).toBe(plain(sizeSoldOut().compile(db).sql));
    expect(plain(where)).not.toBe('');
  });
});
