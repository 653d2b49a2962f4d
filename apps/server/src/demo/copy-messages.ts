// What the demo loader's COPY path passes between its threads (copy-load.ts, generate-worker.ts, seal-worker.ts).
import type { DataKey } from '../lib/crypto/keyring.js';
import type { StoredDocument } from '../lib/storage/document-store.js';
import type { CopyRows } from './copy-text.js';
import type { GeneratorContext } from './generate.js';

/** The tables the loader writes, in the order a batch is copied (a dispute before its history). */
export const COPIED = [
  'orders',
  'documents',
  'remarks',
  'mails',
  'downloads',
  'disputes',
  'dispute_history',
  'audit_log',
] as const;
export type CopiedTable = (typeof COPIED)[number];
export type Counts = Record<CopiedTable, number>;

export interface GenerateWorkerData {
  context: GeneratorContext;
  batchSize: number;
  /** Batches sent and not yet acknowledged (loaded) at most; the worker waits beyond. */
  window: number;
  /** The demo approved document every completed order's documents row points at. */
  document: StoredDocument;
}

export type WorkerMessage =
  | {
      type: 'batch';
      batch: number;
      counts: Counts;
      /** The orders' lines end before their sealed columns (SEALED_COLUMNS), to be completed by the sealing worker. */
      tables: Record<CopiedTable, CopyRows>;
      /** JSON of [order_id, ...the values of SENSITIVE_ORDER_FIELDS] for each order of the batch. */
      sensitive: string;
    }
  | { type: 'done' };

/** From the main thread: a batch is loaded. */
export interface AckMessage {
  type: 'ack';
}

/** The orders' columns the sealing worker writes, at the end of each line. */
export const SEALED_COLUMNS = ['personal_sealed', 'passport_number_hmac'] as const;

export interface SealWorkerData {
  /** The data keys that seal (structured-cloned: their keys arrive as Uint8Array). */
  keys: DataKey[];
}

/** A batch's orders: their lines up to the sealed columns, and each order's id and sensitive values. */
export interface SealRequest {
  batch: number;
  orders: CopyRows;
  /** JSON of [order_id, ...the values of SENSITIVE_ORDER_FIELDS] for each order, in line order. */
  sensitive: string;
}

export interface SealResult {
  batch: number;
  orders: CopyRows;
}
