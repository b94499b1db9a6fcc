import type SQLite from 'better-sqlite3';
import { minorToMajorString } from '../shared/money.js';
import { foldForSearch, SEARCH_FOLD_SQL_FUNCTION } from '../shared/search-fold.js';

export const MAJOR_AMOUNT_SQL_FUNCTION = 'major_amount';

/**
 * Functions the store's SQL calls, registered on every connection. The triggers that index products call
 * search_fold() (migration 0011), so a connection without it fails a product write with "no such
 * function" rather than index unfolded text. major_amount() writes a price as the admin reads it, with its
 * currency's decimals (1500 yen, 1.500 dinar, 89.00 dollars).
 */
export function registerSqlFunctions(sqlite: SQLite.Database): void {
  sqlite.function(SEARCH_FOLD_SQL_FUNCTION, { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? foldForSearch(text) : text,
  );
  sqlite.function(MAJOR_AMOUNT_SQL_FUNCTION, { deterministic: true }, (minor: unknown, currency: unknown) =>
    (typeof minor === 'number' || typeof minor === 'bigint') && typeof currency === 'string'
      ? minorToMajorString(Number(minor), currency)
      : null,
  );
}
