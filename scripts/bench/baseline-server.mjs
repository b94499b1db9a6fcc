// The baseline: a bare Fastify route reading 24 product rows with one prepared better-sqlite3 statement.
// What the machine can serve at all; the store's figures are reported as a ratio to it.
import Database from 'better-sqlite3';
import Fastify from 'fastify';

const [file, port] = process.argv.slice(2);
const db = new Database(file, { readonly: true });
db.pragma('journal_mode = WAL');
const stmt = db.prepare(
  'SELECT id, title, substr(description, 1, 280) AS description, manufacturer, price_minor, currency, sizes FROM products ORDER BY page_order, id LIMIT 24',
);
const app = Fastify({ logger: false });
app.get('/baseline', async () => stmt.all());
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
