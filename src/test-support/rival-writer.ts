import type SQLite from 'better-sqlite3';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

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
