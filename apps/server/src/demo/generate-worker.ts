// The worker thread of the demo loader's COPY path (copy-load.ts) that generates: the orders batch after batch, every
// table's rows written as COPY text, an order's line up to its sealed fields, which the sealing worker completes
// (seal-worker.ts) from the values passed on beside. Meanwhile the main thread takes the batch's ids from the tables'
// sequences, fills them in and streams the batches before it to PostgreSQL. Rows are written a few hundred orders at a
// time and dropped, so they die young (cheap to collect); what a batch keeps is its text.
import { parentPort, workerData } from 'node:worker_threads';
import { SENSITIVE_ORDER_FIELDS } from '../modules/personal-data/personal-fields.js';
import { CHILD_TABLES, DemoOrderGenerator, PARENT_OF, ROW_COLUMNS } from './generate.js';
import { CopyWriter, type CopyRows } from './copy-text.js';
import {
  COPIED,
  SEALED_COLUMNS,
  type AckMessage,
  type CopiedTable,
  type Counts,
  type GenerateWorkerData,
  type WorkerMessage,
} from './copy-messages.js';

/** Orders generated, sealed and written at a time. */
const CHUNK = 250;

/** The columns of a documents row, as the JSON path's INSERT … SELECT names them. */
const DOCUMENT_COLUMNS = [
  'id',
  'order_id',
  'storage_key',
  'original_name',
  'content_type',
  'size_bytes',
  'sha256',
  'uploaded_by',
  'created_at',
] as const;

async function run(port: NonNullable<typeof parentPort>, input: GenerateWorkerData): Promise<void> {
  const generator = new DemoOrderGenerator(input.context);
  const { key, size, sha256 } = input.document;
  const sealed: readonly string[] = SEALED_COLUMNS;
  const writers = {
    orders: new CopyWriter(
      ROW_COLUMNS.orders.filter((c) => !sealed.includes(c)),
      1,
      true,
    ),
    documents: new CopyWriter(DOCUMENT_COLUMNS, 2),
    remarks: new CopyWriter(ROW_COLUMNS.remarks, 2),
    mails: new CopyWriter(ROW_COLUMNS.mails, 2),
    downloads: new CopyWriter(ROW_COLUMNS.downloads, 2),
    disputes: new CopyWriter(ROW_COLUMNS.disputes, 2),
    dispute_history: new CopyWriter(ROW_COLUMNS.dispute_history, 2),
    audit_log: new CopyWriter(ROW_COLUMNS.audit_log, 2),
  } satisfies Record<CopiedTable, CopyWriter>;

  let unacknowledged = 0;
  let wake: (() => void) | null = null;
  port.on('message', (m: AckMessage) => {
    if (m.type !== 'ack') return;
    unacknowledged--;
    wake?.();
  });

  // Run index of the batch's first order, and of its first dispute.
  const position = { orders: 0, disputes: 0 };
  for (let number = 0; generator.remaining > 0; number++) {
    while (unacknowledged >= input.window) {
      await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
    }
    let inBatch = 0;
    let inBatchDisputes = 0;
    const sensitive: unknown[] = [];
    while (inBatch < input.batchSize && generator.remaining > 0) {
      const part = generator.batch(Math.min(CHUNK, input.batchSize - inBatch));
      for (let k = 0; k < part.orders.length; k++) {
        const row = part.orders[k]!;
        // The sensitive fields go to the sealing worker; their own columns stay NULL, as OrderFieldsCipher leaves them.
        sensitive.push(row.order_id);
        for (const field of SENSITIVE_ORDER_FIELDS) {
          sensitive.push(row[field]);
          row[field] = null;
        }
        writers.orders.row(row);
        // The approved document of every order someone completed (processed_at), uploaded by them when they did.
        if (row.processed_at !== null && row.processed_at !== undefined) {
          writers.documents.row(
            {
              storage_key: key,
              original_name: `eTA-${row.order_id as string}.pdf`,
              content_type: 'application/pdf',
              size_bytes: size,
              sha256,
              uploaded_by: row.processed_by,
              created_at: row.processed_at,
            },
            inBatch + k,
          );
        }
      }
      // Child rows carry their parent's index in the run (generate.ts); here its index in the batch.
      for (const table of CHILD_TABLES) {
        const { column, table: parent } = PARENT_OF[table];
        for (const row of part[table]) {
          writers[table].row(row, ((row as Record<string, unknown>)[column] as number) - position[parent]);
        }
      }
      inBatch += part.orders.length;
      inBatchDisputes += part.disputes.length;
    }
    position.orders += inBatch;
    position.disputes += inBatchDisputes;
    const tables = {} as Record<CopiedTable, CopyRows>;
    const counts = {} as Counts;
    for (const table of COPIED) {
      tables[table] = writers[table].take();
      counts[table] = tables[table].lines.length;
    }
    unacknowledged++;
    const message: WorkerMessage = {
      type: 'batch',
      batch: number,
      counts,
      tables,
      sensitive: JSON.stringify(sensitive),
    };
    port.postMessage(
      message,
      COPIED.map((t) => tables[t].data.buffer as ArrayBuffer),
    );
  }
  port.postMessage({ type: 'done' } satisfies WorkerMessage);
  port.unref(); // nothing more to wait for: the thread ends once the message is out
}

if (parentPort && workerData) await run(parentPort, workerData as GenerateWorkerData);
