import type { Kysely } from 'kysely';
import * as searchFold from './2026-11-22T0011-search-fold.js';

// Frozen once landed: add a new migration instead of editing this one.
/**
 * search_fold() now writes final sigma (ς) as σ, as Σ lower-cases without context on PostgreSQL, so 'ΟΔΟΣ',
 * 'οδος' and 'οδοσ' are one word to search and facets on both engines (src/shared/search-fold.ts). Text and
 * facet keys already indexed hold the old spelling: 0011's up() indexes every product again, each under its
 * own search rowid, with the function this code registers.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await searchFold.up(db);
}

/** The old fold is gone from the code; indexing again with the current one is all a step back can do. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await searchFold.up(db);
}
