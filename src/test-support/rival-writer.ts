import type SQLite from 'better-sqlite3';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import pg from 'pg';
import type { Db } from '../db/database.js';

/**
 * A Kysely plugin that lets another writer win a race: just before the first INSERT or UPDATE it sees, it
 * adds a product with `sku` straight through the SQLite connection (so inside the open transaction, after
 * any check the code made). The write that follows then meets the unique index, as it would when a second
 * process took the SKU between the check and the write.
 */
export class RivalWriter implements KyselyPlugin {
  private armed = true;

  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly rival: { id: string; title: string; sku: string },
  ) {}

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (this.armed && (node.kind === 'InsertQueryNode' || node.kind === 'UpdateQueryNode')) {
      this.armed = false;
      const now = new Date().toISOString();
      this.sqlite
        .prepare(
          'INSERT INTO products (id, title, sku, price_minor, created_at, updated_at) VALUES (?, ?, ?, 100, ?, ?)',
        )
        .run(this.rival.id, this.rival.title, this.rival.sku, now, now);
    }
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}

type Rival = { id: string; title: string; sku: string };

/**
 * On PostgreSQL the rival is another connection, as it would be: its product is inserted in a transaction
 * of its own before the race (so the code's check cannot see it), and committed as the code sends its first
 * INSERT or UPDATE. A write of the same SKU then waits for that commit and meets the unique index.
 */
class RivalCommit implements KyselyPlugin {
  committed: Promise<unknown> | null = null;

  constructor(private readonly client: pg.Client) {}

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (!this.committed && (node.kind === 'InsertQueryNode' || node.kind === 'UpdateQueryNode'))
      this.committed = this.client.query('COMMIT');
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}

/**
 * The database handle a racing test writes through, on either engine (RivalWriter on SQLite, RivalCommit on
 * PostgreSQL). disarm() ends the race: on PostgreSQL it also deletes the rival's product, which committed,
 * where SQLite's was undone with the transaction it was written into.
 */
export async function racingDatabase(
  store: { handle: { db: Db; sqlite: SQLite.Database }; postgresUrl: string | null },
  rival: Rival,
): Promise<{ db: Db; disarm(): Promise<void> }> {
  const db = store.handle.db;
  if (!store.postgresUrl) {
    return { db: db.withPlugin(new RivalWriter(store.handle.sqlite, rival)), disarm: async () => {} };
  }
  const client = new pg.Client({ connectionString: store.postgresUrl });
  await client.connect();
  await client.query('BEGIN');
  await client.query(
    `INSERT INTO products (id, title, sku, price_minor, created_at, updated_at) VALUES ($1, $2, $3, 100, now(), now())`,
    [rival.id, rival.title, rival.sku],
  );
  const plugin = new RivalCommit(client);
  return {
    db: db.withPlugin(plugin),
    async disarm() {
      await (plugin.committed ?? client.query('ROLLBACK'));
      await client.end();
      await db.deleteFrom('products').where('id', '=', rival.id).execute();
    },
  };
}
