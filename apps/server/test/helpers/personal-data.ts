// Personal data in tests (issue 24): the data keys of a test database, and the app's document store as the app
// itself reads it (decrypting), beside the raw one on disk.
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/schema.js';
import type { Config } from '../../src/lib/config.js';
import type { Keyring } from '../../src/lib/crypto/keyring.js';
import { LocalMasterKey } from '../../src/lib/crypto/master-key.js';
import { EncryptedDocumentStore } from '../../src/lib/storage/encrypted-document-store.js';
import { LocalDocumentStore } from '../../src/lib/storage/local-document-store.js';
import { configuredMasterKeys, openKeyring } from '../../src/modules/personal-data/data-keys.js';
import { OrderFieldsCipher } from '../../src/modules/personal-data/order-fields.js';

/** A fixed master key for databases a test seeds without an app (base64, as DATA_KEY takes it). */
export const TEST_DATA_KEY = 'dGVzdC1tYXN0ZXIta2V5LTMyLWJ5dGVzLWxvbmchISE=';

/** The data keys of a database that no app opened: made under TEST_DATA_KEY on first use. */
export const testKeyring = (db: Kysely<DB>): Promise<Keyring> =>
  openKeyring(db, { current: new LocalMasterKey(Buffer.from(TEST_DATA_KEY, 'base64')) });

/** The data keys a test app opened (its config's DATA_KEY, or the key it made in its DATA_DIR). */
export const appKeyring = async (t: { database: { db: Kysely<DB> }; config: Config }): Promise<Keyring> =>
  openKeyring(t.database.db, await configuredMasterKeys(t.config));

/** Opens an order's sealed fields as the order detail does. */
export const orderFieldsOf = (keyring: Keyring) => new OrderFieldsCipher(keyring);

/** The test app's document store as the app reads it: DATA_DIR/documents, decrypted. */
export async function appDocumentStore(t: {
  database: { db: Kysely<DB> };
  config: Config;
}): Promise<EncryptedDocumentStore> {
  return new EncryptedDocumentStore(
    new LocalDocumentStore(path.join(t.config.dataDir, 'documents')),
    await appKeyring(t),
  );
}
