import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { postgresMigrations } from '../../migrations/postgres/index.js';

/**
 * Every schema change after the PostgreSQL baseline lands on both engines. Each folder dates its own
 * migrations and numbers them on its own, so twins are paired by what the name says after the date and number
 * (`2026-11-25T0015-job-leases` and `2026-11-25T0002-job-leases`). A migration made for one engine only is
 * named below with the reason: a new one must either get its twin or say here why it needs none.
 */

/** The last SQLite migration the PostgreSQL baseline reproduces (see its comment): older ones have no twin. */
const BASELINE_REPRODUCES = '2026-11-25T0014-storefront-revision-key';

const sqliteOnly: Record<string, string> = {
  'fold-final-sigma':
    "search_fold writes final sigma as σ: PostgreSQL's search_fold does so from search-tokens, which came at once",
};

const postgresOnly: Record<string, string> = {
  baseline:
    'the schema as the SQLite migrations up to BASELINE_REPRODUCES leave it: a PostgreSQL store starts here',
  'search-tokens':
    "words cut as FTS5's unicode61 and the query splitter cut them, which PostgreSQL's text-search parser does not",
  'size-detail-as-written':
    'jsonb sorts object keys; SQLite keeps the size details as written, as json now does',
  'two-letter-words':
    "one-character words left out of search_query, as the app's searchTerms already does on SQLite",
};

const DATED = /^\d{4}-\d{2}-\d{2}T\d{4}-(.+)$/;

function change(name: string): string {
  const m = DATED.exec(name);
  if (!m?.[1]) throw new Error(`${name} is not named <date>T<number>-<change>`);
  return m[1];
}

const sqliteNames = Object.keys(migrations).sort();
const postgresNames = Object.keys(postgresMigrations).sort();
const sqliteChanges = sqliteNames.filter((name) => name > BASELINE_REPRODUCES).map(change);
const postgresChanges = postgresNames.map(change);

/** The migration files of a folder, as the index names them. */
function filesIn(dir: string): string[] {
  return readdirSync(path.resolve(import.meta.dirname, '../../migrations', dir))
    .filter((file) => DATED.test(file.replace(/\.ts$/, '')))
    .map((file) => file.replace(/\.ts$/, ''))
    .sort();
}

describe('migration twins', () => {
  it('lists every migration file in its index, so none is left out of a run', () => {
    expect(filesIn('.')).toEqual(sqliteNames);
    expect(filesIn('postgres')).toEqual(postgresNames);
  });

  it('starts PostgreSQL from a baseline that reproduces a SQLite migration that exists', () => {
    expect(sqliteNames).toContain(BASELINE_REPRODUCES);
    expect(postgresChanges[0]).toBe('baseline');
  });

  it('gives every SQLite migration after the baseline its PostgreSQL twin, or a reason for none', () => {
    const alone = sqliteChanges.filter((c) => !postgresChanges.includes(c) && !(c in sqliteOnly));
    expect(alone).toEqual([]);
  });

  it('gives every PostgreSQL migration its SQLite twin, or a reason for none', () => {
    const alone = postgresChanges.filter((c) => !sqliteChanges.includes(c) && !(c in postgresOnly));
    expect(alone).toEqual([]);
  });

  it('names as engine-only only migrations that exist and have no twin', () => {
    expect(
      Object.keys(sqliteOnly).filter((c) => !sqliteChanges.includes(c) || postgresChanges.includes(c)),
    ).toEqual([]);
    expect(
      Object.keys(postgresOnly).filter((c) => !postgresChanges.includes(c) || sqliteChanges.includes(c)),
    ).toEqual([]);
  });

  it('runs the twins in the same order on both engines', () => {
    const twins = sqliteChanges.filter((c) => postgresChanges.includes(c));
    expect(postgresChanges.filter((c) => twins.includes(c))).toEqual(twins);
    expect(twins.length).toBeGreaterThan(0);
  });
});
