import type { DbOrTx } from '../../db/database.js';
import { readStoreContacts } from '../settings/settings.repository.js';
import type { StoreIdentity } from './order-emails.js';

/**
 * The store as its emails name it, read in the caller's transaction: the name and contacts from the settings,
 * and the public address (config.publicUrl) that the order page link and the footer's link start with.
 */
export async function readStoreIdentity(db: DbOrTx, publicUrl: string): Promise<StoreIdentity> {
  const contacts = await readStoreContacts(db);
  return { ...contacts, publicUrl };
}
