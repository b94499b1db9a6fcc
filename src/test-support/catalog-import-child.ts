/**
 * Child process for the kill -9 test: runs an overwrite import of a file into a data folder and says
 * "replacing" on standard output once the replacing transaction has begun.
 */
import { readFileSync } from 'node:fs';
import { databaseFile, openDatabase } from '../db/connect.js';
import { openPostgres } from '../db/postgres/connect-postgres.js';
import { importCatalog } from '../modules/catalog-versions/catalog-versions.service.js';
import { LocalFileStorage } from '../storage/local-file-storage.js';

const [dataDir, file, postgresUrl] = process.argv.slice(2);
if (!dataDir || !file) throw new Error('usage: catalog-import-child <dataDir> <file> [postgresUrl]');
// The store's database: the data folder's SQLite file, or the PostgreSQL database the test store uses.
const handle = postgresUrl ? openPostgres(postgresUrl, 2) : openDatabase(databaseFile(dataDir));
let inserted = false;
await importCatalog(
  { db: handle.db, storage: new LocalFileStorage(dataDir), clock: { now: () => new Date() } },
  readFileSync(file, 'utf8'),
  'overwrite',
  {
    onStage(stage) {
      if (stage === 'replacing' && !inserted) {
        inserted = true;
        process.stdout.write('replacing\n');
      }
    },
  },
);
process.stdout.write('committed\n');
await handle.close();
