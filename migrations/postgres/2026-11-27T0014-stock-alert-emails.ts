import type { Kysely } from 'kysely';
import { mergeStockAlertEmails } from '../2026-11-27T0025-stock-alert-emails.js';

/** As migrations/2026-11-27T0025-stock-alert-emails.ts, whose merge is plain SQL both engines run. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await mergeStockAlertEmails(db);
}

export async function down(): Promise<void> {}
