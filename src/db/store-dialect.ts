import { setImmediate as nextTurn } from 'node:timers/promises';
import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SqliteDialect,
  type TransactionSettings,
} from 'kysely';
import { retryWhileBusy } from './busy-retry.js';
import { type Prepare, statementCache } from './statement-cache.js';
import { WriterLock } from './writer-lock.js';

export type StoreConnections = {
  /** The one connection that writes (busy_timeout 0: waiting for another process is done here, async). */
  writer: SQLite.Database;
  /** A read-only connection for statements outside any write; null when there is only one (":memory:"). */
  reader: SQLite.Database | null;
  /** How long a write may wait for the write lock, in this process and from other processes (ms). */
  lockWait: { ms: number };
};

/** A long transaction lets the event loop run other requests this often (ms of work between turns). */
const BREATH_MS = 10;

/** Statements that may run on the reader: a SELECT (or WITH … SELECT) that SQLite says writes nothing. */
const READ_TEXT = /^\s*(select|with)\b/i;

/**
 * Kysely's SQLite dialect with the store's driver. Kysely's own SqliteDriver issues a plain (deferred) BEGIN
 * and shares one connection under a mutex; for a store that is wrong three ways:
 * - a deferred transaction that reads, then writes, meets another process's write lock at the upgrade, where
 *   SQLite returns SQLITE_BUSY at once without calling the busy handler; BEGIN IMMEDIATE takes the write lock
 *   first, so the wait happens where it can be waited for;
 * - better-sqlite3 waits for a lock synchronously, freezing every request: here the wait is async
 *   (busy-retry.ts), within `lockWait.ms`, then SQLITE_BUSY (503);
 * - every query queues behind any open transaction: here reads outside a write go to a second, read-only
 *   connection (WAL: readers never wait for the writer and see only committed data), so shoppers are answered
 *   while an import's transaction is open or while a write waits for another process's lock.
 */
export class StoreDialect extends SqliteDialect {
  readonly #connections: StoreConnections;

  constructor(connections: StoreConnections) {
    super({ database: connections.writer });
    this.#connections = connections;
  }

  override createDriver(): Driver {
    return new StoreDriver(this.#connections);
  }
}

class StoreDriver implements Driver {
  readonly lock = new WriterLock();
  readonly writer: Prepare;
  readonly reader: Prepare | null;
  /** When the open transaction last let the event loop turn (performance.now()). */
  lastBreath = 0;

  constructor(readonly connections: StoreConnections) {
    this.writer = statementCache(connections.writer);
    this.reader = connections.reader ? statementCache(connections.reader) : null;
  }

  async init(): Promise<void> {}

  /** A lease, not the connection: it takes the writer only once it writes (see Lease). */
  async acquireConnection(): Promise<DatabaseConnection> {
    return new Lease(this);
  }

  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    await lease(connection).begin();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await lease(connection).executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(): Promise<void> {
    this.rollbackIfOpen();
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    lease(connection).release();
  }

  async destroy(): Promise<void> {
    // The reader first: the writer, closing last, checkpoints and removes the -wal file.
    this.connections.reader?.close();
    this.connections.writer.close();
  }

  deadline(): number {
    return performance.now() + this.connections.lockWait.ms;
  }

  /**
   * After SQLITE_FULL, SQLITE_IOERR or SQLITE_NOMEM, SQLite has already rolled the transaction back; a second
   * rollback would fail with "no transaction is active" and that error would replace the real one (a full
   * disk would read as an unknown failure). Rolling back only what is still open keeps the cause.
   */
  rollbackIfOpen(): void {
    if (this.connections.writer.inTransaction) this.writer('rollback').run();
  }

  /** Lets timers and I/O (other shoppers) run once the open transaction has worked BREATH_MS straight. */
  async breathe(): Promise<void> {
    if (performance.now() - this.lastBreath < BREATH_MS) return;
    await nextTurn();
    this.lastBreath = performance.now();
  }
}

function lease(connection: DatabaseConnection): Lease {
  if (!(connection instanceof Lease)) throw new Error('not a connection of the store driver');
  return connection;
}

/**
 * What Kysely holds from acquireConnection to releaseConnection: one query, a transaction or a
 * `db.connection()` scope. Reads go to the reader until the lease writes or begins a transaction; from then
 * on it holds the writer (this process's WriterLock) until released, so a transaction, or a scope that sets
 * a pragma and then runs one (durable.ts), has the write connection to itself across its awaits.
 */
class Lease implements DatabaseConnection {
  #pinned = false;

  constructor(private readonly driver: StoreDriver) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { driver } = this;
    const reader = driver.reader;
    if (!this.#pinned && reader && READ_TEXT.test(query.sql)) {
      // Reads see no lock in WAL, save in rare moments (another connection recovering the WAL): a short
      // async retry covers those, within the same budget as writes.
      const answer = await retryWhileBusy(() => {
        const statement = reader(query.sql);
        return statement.readonly ? run<R>(statement, query.parameters) : null;
      }, driver.deadline());
      if (answer) return answer;
    }
    const deadline = driver.deadline();
    await this.pin(deadline);
    if (driver.connections.writer.inTransaction) {
      // Holding the write lock (BEGIN IMMEDIATE), a statement does not meet SQLITE_BUSY: nothing to retry.
      await driver.breathe();
      return run<R>(driver.writer(query.sql), query.parameters);
    }
    // A statement on its own (autocommit) that is refused as busy did nothing, so it may run again.
    return retryWhileBusy(() => run<R>(driver.writer(query.sql), query.parameters), deadline);
  }

  /** Nothing in the store streams; like Kysely's driver, a stream holds the writer until it ends. */
  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    await this.pin(this.driver.deadline());
    for (const row of this.driver.writer(query.sql).iterate(query.parameters)) yield { rows: [row as R] };
  }

  async begin(): Promise<void> {
    const deadline = this.driver.deadline();
    await this.pin(deadline);
    await retryWhileBusy(() => this.driver.writer('begin immediate').run(), deadline);
    this.driver.lastBreath = performance.now();
  }

  release(): void {
    if (!this.#pinned) return;
    // A scope that began a transaction by hand and never ended it must not hand it to the next writer.
    this.driver.rollbackIfOpen();
    this.#pinned = false;
    this.driver.lock.release();
  }

  private async pin(deadline: number): Promise<void> {
    if (this.#pinned) return;
    await this.driver.lock.acquire(deadline);
    this.#pinned = true;
  }
}

function run<R>(statement: SQLite.Statement, parameters: readonly unknown[]): QueryResult<R> {
  if (statement.reader) return { rows: statement.all(parameters) as R[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}
