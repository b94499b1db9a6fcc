/**
 * The bench's load table. Every row is a ratio to THE baseline: the bare route on the SQLite file, measured
 * in the same run at the same connection count. With `--db postgres` the PostgreSQL store's rows sit next
 * to SQLite's, and each cached scenario gets "PostgreSQL ratio ÷ SQLite ratio" (the target is at
 * least 0.8).
 */
import type { BenchEngine } from './bench-database.js';
import type { Measured } from './http-load.js';

export type Row = Measured & { scenario: string; engine: BenchEngine; connections: number };
export type RatedRow = Row & { ratioToBaseline: number | null };
export type EngineComparison = {
  scenario: string;
  connections: number;
  sqliteRatio: number;
  postgresRatio: number;
  /** PostgreSQL's ratio ÷ SQLite's ratio, i.e. PostgreSQL's req/s ÷ SQLite's req/s in the same run. */
  postgresOverSqlite: number;
};

export const BASELINE = 'BASELINE (bare route)';
/** The PostgreSQL bare route, printed for reference; the ratios stay to the SQLite one. */
export const PG_BASELINE = 'BASELINE on PostgreSQL';
/** PostgreSQL's cached scenarios should keep at least this share of SQLite's throughput. */
export const POSTGRES_TARGET = 0.8;

const round2 = (n: number) => Number(n.toFixed(2));

export function rate(rows: Row[]): RatedRow[] {
  return rows.map((r) => {
    const base = rows.find(
      (b) => b.scenario === BASELINE && b.engine === 'sqlite' && b.connections === r.connections,
    );
    return { ...r, ratioToBaseline: base ? round2(r.rps / base.rps) : null };
  });
}

export function compareEngines(rows: RatedRow[]): EngineComparison[] {
  const out: EngineComparison[] = [];
  for (const pgRow of rows) {
    if (pgRow.engine !== 'postgres' || pgRow.scenario === PG_BASELINE) continue;
    const lite = rows.find(
      (r) => r.engine === 'sqlite' && r.scenario === pgRow.scenario && r.connections === pgRow.connections,
    );
    if (!lite || lite.ratioToBaseline === null || pgRow.ratioToBaseline === null) continue;
    out.push({
      scenario: pgRow.scenario,
      connections: pgRow.connections,
      sqliteRatio: lite.ratioToBaseline,
      postgresRatio: pgRow.ratioToBaseline,
      postgresOverSqlite: round2(pgRow.rps / lite.rps),
    });
  }
  return out;
}

const cells = (r: RatedRow) =>
  `${String(r.connections).padStart(5)} ${r.rps.toFixed(0).padStart(9)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)} ${String(r.errors).padStart(7)} ${String(r.non2xx).padStart(8)}  ${r.ratioToBaseline ?? ''}`;

/** The table as the SQLite-only run has always printed it. */
export function printRows(rows: RatedRow[]): void {
  console.log('scenario                    conns     req/s   p50 ms   p99 ms  errors  non-2xx  × baseline');
  for (const r of rows) console.log(`${r.scenario.padEnd(26)} ${cells(r)}`);
}

/** Both engines' rows, then the comparison the 0.8× target is read from. */
export function printEngines(rows: RatedRow[], comparison: EngineComparison[]): void {
  console.log('Every ratio is to the bare route on SQLite at the same connections, in this run.');
  console.log(
    'scenario                    engine      conns     req/s   p50 ms   p99 ms  errors  non-2xx  × baseline',
  );
  for (const r of rows) console.log(`${r.scenario.padEnd(26)}  ${r.engine.padEnd(9)} ${cells(r)}`);
  console.log(`\nPostgreSQL ratio ÷ SQLite ratio (target ≥ ${POSTGRES_TARGET})`);
  console.log('scenario                    conns  SQLite ×  PostgreSQL ×  PG ÷ SQLite');
  for (const c of comparison) {
    const verdict = c.postgresOverSqlite >= POSTGRES_TARGET ? 'meets' : 'BELOW';
    console.log(
      `${c.scenario.padEnd(26)} ${String(c.connections).padStart(5)} ${String(c.sqliteRatio).padStart(9)} ${String(c.postgresRatio).padStart(13)} ${String(c.postgresOverSqlite).padStart(12)}  ${verdict}`,
    );
  }
}
