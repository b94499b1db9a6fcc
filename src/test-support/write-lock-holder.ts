/**
 * Child process for the lock tests: another process holding the database's write lock (BEGIN IMMEDIATE), as
 * a backup script or a stuck admin CLI would. Says "locked" once it holds the lock; on a "release" line on
 * its standard input it rolls back, says "released" and exits.
 */
import { createInterface } from 'node:readline';
import SQLite from 'better-sqlite3';

const [file] = process.argv.slice(2);
if (!file) throw new Error('usage: write-lock-holder <database file>');
const db = new SQLite(file);
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\n');
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() !== 'release') continue;
  db.exec('ROLLBACK');
  db.close();
  process.stdout.write('released\n');
  break;
}
process.exit(0);
