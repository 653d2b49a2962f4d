// The second worker thread of the demo loader's COPY path (copy-load.ts): it seals each order's sensitive fields, as
// the intake does (OrderFieldsCipher), and completes the orders' COPY lines the generating worker wrote up to them
// (generate-worker.ts). Sealing is a third of the generation's work; here it runs beside it.
import { parentPort, workerData } from 'node:worker_threads';
import { Keyring } from '../lib/crypto/keyring.js';
import { OrderFieldsCipher, type SensitiveValues } from '../modules/personal-data/order-fields.js';
import { SENSITIVE_ORDER_FIELDS } from '../modules/personal-data/personal-fields.js';
import { CopyWriter, joinLines } from './copy-text.js';
import { SEALED_COLUMNS, type SealRequest, type SealResult, type SealWorkerData } from './copy-messages.js';

function run(port: NonNullable<typeof parentPort>, input: SealWorkerData): void {
  const keys = input.keys.map((k) => ({ ...k, key: Buffer.from(k.key) }));
  const fields = new OrderFieldsCipher(new Keyring(keys));
  const tails = new CopyWriter(SEALED_COLUMNS, 0);
  const width = 1 + SENSITIVE_ORDER_FIELDS.length;
  port.on('message', (m: SealRequest) => {
    const sensitive = JSON.parse(m.sensitive) as (string | number | null)[];
    for (let at = 0; at < sensitive.length; at += width) {
      const values: SensitiveValues = {};
      SENSITIVE_ORDER_FIELDS.forEach((field, f) => {
        const value = sensitive[at + 1 + f];
        if (value !== null && value !== undefined) values[field] = value;
      });
      tails.row(fields.seal(sensitive[at] as string, values));
    }
    const orders = joinLines(m.orders, tails.take());
    port.postMessage({ batch: m.batch, orders } satisfies SealResult, [orders.data.buffer as ArrayBuffer]);
  });
}

if (parentPort && workerData) run(parentPort, workerData as SealWorkerData);
