// `npm run documents:migrate [-- --delete-local]`: copies every document the database names from DATA_DIR/documents
// into the S3 bucket of S3_BUCKET (same keys), verifies each by sha256, and prints a line per failure and a summary.
// Run it before switching to DOCUMENTS_STORE=s3 and once more after (it skips what is already there); exit 1 if any
// document failed.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../lib/config.js';
import { prepareDatabase } from '../startup.js';
import { decryptDocument } from '../lib/crypto/document-cipher.js';
import { configuredMasterKeys, DataKeyError, openKeyring } from '../modules/personal-data/data-keys.js';
import { LocalDocumentStore } from '../lib/storage/local-document-store.js';
import { localDocumentsDir } from '../lib/storage/open-document-store.js';
import { S3DocumentStore } from '../lib/storage/s3-document-store.js';
import { selectReferencedDocuments } from '../lib/storage/stored-documents.repository.js';
import { migrateDocuments, type MigrationProgress } from '../lib/storage/document-migration.js';

const USAGE =
  'usage: npm run documents:migrate [-- --delete-local]\n' +
  '  copies the documents under DATA_DIR/documents to the bucket S3_BUCKET and verifies each by sha256\n' +
  '  --delete-local  remove each local copy once its S3 copy has been read back intact\n';

/** A progress line at most this often, besides one per failure and the last one. */
const PROGRESS_EVERY_MS = 2000;

function progressPrinter(): (p: MigrationProgress) => void {
  let last = 0;
  return (p) => {
    if (p.outcome === 'failed') process.stderr.write(`  FAILED ${p.key}: ${p.reason}\n`);
    const now = performance.now();
    if (now - last >= PROGRESS_EVERY_MS || p.done === p.total) {
      last = now;
      process.stdout.write(`  ${p.done} / ${p.total} documents\n`);
    }
  };
}

async function main(): Promise<number> {
  let deleteLocal: boolean;
  let config: Config;
  try {
    deleteLocal =
      parseArgs({ options: { 'delete-local': { type: 'boolean' } }, strict: true }).values['delete-local'] === true;
  } catch (err) {
    process.stderr.write(`documents:migrate: ${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
    return 2;
  }
  try {
    config = loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`documents:migrate: configuration error: ${err.message}\n`);
    return 1;
  }
  if (!config.s3) {
    process.stderr.write(`documents:migrate: S3_BUCKET is not set: there is no bucket to copy to\n${USAGE}`);
    return 1;
  }
  const s3 = new S3DocumentStore(config.s3);
  let database;
  try {
    database = await prepareDatabase(config);
  } catch (err) {
    process.stderr.write(
      `documents:migrate: cannot open the database: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    return 1;
  }
  try {
    // Encrypted documents (issue 24) are copied as they are stored; their sha256 is checked on the decrypted bytes.
    const keyring = await openKeyring(database.db, await configuredMasterKeys(config));
    const documents = await selectReferencedDocuments(database.db);
    process.stdout.write(
      `Copying ${documents.length} documents from ${localDocumentsDir(config)} to s3://${config.s3.bucket}` +
        `${deleteLocal ? ' (deleting each local copy once verified)' : ''}\n`,
    );
    const summary = await migrateDocuments(documents, new LocalDocumentStore(localDocumentsDir(config)), s3, {
      deleteLocal,
      onProgress: progressPrinter(),
      plaintextOf: (stored) => decryptDocument(keyring, stored),
    });
    process.stdout.write(
      `Done: ${summary.copied} copied and verified, ${summary.alreadyInS3} already in S3, ` +
        `${summary.failed.length} failed, ${summary.localDeleted} local copies deleted.\n`,
    );
    if (summary.failed.length > 0) {
      process.stderr.write(
        `${summary.failed.length} documents were not moved (listed above); their local copies are kept.\n`,
      );
      return 1;
    }
    return 0;
  } catch (err) {
    if (!(err instanceof DataKeyError)) throw err;
    process.stderr.write(`documents:migrate: ${err.message}\n`);
    return 1;
  } finally {
    s3.close();
    await database.close();
  }
}

process.exitCode = await main();
