// The baseline: a bare Fastify route reading 24 product rows with one prepared statement, on the same
// database as the store (better-sqlite3 on the SQLite file, or a pg pool on a postgres:// URL).
// What the machine can serve at all; the store's figures are reported as a ratio to it.
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';

const [target, port] = process.argv.slice(2);
const QUERY =
  'SELECT id, title, substr(description, 1, 280) AS description, manufacturer, price_minor, currency, sizes FROM products ORDER BY page_order, id LIMIT 24';

function reader() {
  if (/^postgres(ql)?:\/\//.test(target)) {
    const pool = new pg.Pool({ connectionString: target, max: 10 });
    return {
      rows: async () => (await pool.query({ name: 'baseline', text: QUERY })).rows,
      close: () => pool.end(),
    };
  }
  const db = new Database(target, { readonly: true });
  db.pragma('journal_mode = WAL');
  const stmt = db.prepare(QUERY);
  return { rows: async () => stmt.all(), close: async () => db.close() };
}

const source = reader();
const app = Fastify({ logger: false });
app.get('/baseline', () => source.rows());
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.on('SIGTERM', () =>
  app
    .close()
    .then(() => source.close())
    .then(() => process.exit(0)),
);
