// The configured document store, built in one place for the server, its CLIs and the demo data: the local
// directory DATA_DIR/documents (never inside a served folder), or the S3 bucket of DOCUMENTS_STORE=s3.
import path from 'node:path';
import type { Config } from '../config.js';
import type { DocumentStore } from './document-store.js';
import { LocalDocumentStore } from './local-document-store.js';

export async function openDocumentStore(
  config: Pick<Config, 'dataDir' | 'documentsStore' | 's3'>,
): Promise<DocumentStore> {
  if (config.documentsStore === 'local') return new LocalDocumentStore(localDocumentsDir(config));
  if (!config.s3) throw new Error('DOCUMENTS_STORE=s3 needs S3_BUCKET');
  // The SDK takes about half a second to load: a desk on the local store never loads it.
  const { S3DocumentStore } = await import('./s3-document-store.js');
  return new S3DocumentStore(config.s3);
}

/** Where the local store keeps its files (also what `npm run documents:migrate` copies from). */
export const localDocumentsDir = (config: Pick<Config, 'dataDir'>): string => path.join(config.dataDir, 'documents');
