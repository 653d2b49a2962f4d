// The configured document store, built in one place for the server, its CLIs and the demo data: the local
// directory DATA_DIR/documents (never inside a served folder).
import path from 'node:path';
import type { DocumentStore } from './document-store.js';
import { LocalDocumentStore } from './local-document-store.js';

export function openDocumentStore(config: { dataDir: string }): DocumentStore {
  return new LocalDocumentStore(path.join(config.dataDir, 'documents'));
}
