// The demo loader's path on a PostgreSQL server (demo-data.ts): a worker thread generates and writes the rows as
// COPY text (generate-worker.ts), a second one seals the orders' sensitive fields and completes their lines
// (seal-worker.ts), while this thread takes each batch's ids, fills them in and streams the batches with COPY FROM
// STDIN, on connections of its own. Each table is written by one connection only, batch after batch,
// so its rows lie in the heap in id order, as they were created. Ids come from the tables' own sequences, taken for
// each batch here, so a desk writing orders meanwhile gets ids of its own as it would beside any other writer.
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { DataKey } from '../lib/crypto/keyring.js';
import { runnableFile } from '../lib/workers/worker-pool.js';
import { fillId, ID_WIDTH } from './copy-text.js';
import { PARENT_OF } from './generate.js';
import {
  COPIED,
  type AckMessage,
  type CopiedTable,
  type Counts,
  type GenerateWorkerData,
  type WorkerMessage,
  type SealRequest,
  type SealResult,
  type SealWorkerData,
} from './copy-messages.js';

export interface CopyLoadOptions {
  connectionString: string;
  worker: Omit<GenerateWorkerData, 'window'>;
  /** The data keys that seal the orders' sensitive fields. */
  keys: DataKey[];
  /**
   * The tables each connection writes, every table in exactly one lane. A batch is committed by the first lane
   * before the others commit theirs (their COPY runs meanwhile), so a child row is never there without its order:
   * with the foreign keys in place, the orders' lane must hold the child tables too.
   */
  lanes: readonly (readonly CopiedTable[])[];
  signal?: AbortSignal;
  /** After each batch is committed by every lane. */
  onBatch?: (counts: Counts) => void;
}

/** Batches between the worker and the database at most: generated ahead, or on their way in. */
const WINDOW = 3;

type Rows = Extract<WorkerMessage, { type: 'batch' }>;

/** Ids taken from one sequence, as runs of consecutive ids: first, count, first, count… */
type IdRuns = number[];

const empty = (): Counts => Object.fromEntries(COPIED.map((t) => [t, 0])) as Counts;

/** A settable promise: `done` once `resolve` or `reject` is called. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const done = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  done.catch(() => undefined); // awaited by whoever needs it; not unhandled meanwhile
  return { done, resolve, reject };
}

async function connect(connectionString: string): Promise<pg.Client> {
  // A lost commit after a crash loses demo rows only; not waiting for each batch's WAL flush keeps the lanes busy.
  const client = new pg.Client({ connectionString, options: '-c TimeZone=UTC -c synchronous_commit=off' });
  await client.connect();
  return client;
}

async function copy(
  client: pg.Client,
  table: CopiedTable,
  columns: readonly string[],
  data: Uint8Array,
): Promise<void> {
  const cols = columns.map((c) => client.escapeIdentifier(c)).join(', ');
  const stream = client.query(copyFrom(`COPY ${client.escapeIdentifier(table)} (${cols}) FROM STDIN`));
  const finished = once(stream, 'finish');
  stream.end(data);
  await finished;
}

/**
 * Takes `counts[t]` ids from each table's sequence in one statement: as one run when they are consecutive (always,
 * unless another session takes ids meanwhile), else one by one.
 */
async function takeIds(
  client: pg.Client,
  sequences: Record<CopiedTable, string>,
  counts: Counts,
): Promise<Record<CopiedTable, IdRuns>> {
  const parts = COPIED.map((t) =>
    counts[t] === 0
      ? `'' AS ${t}`
      : `(WITH v AS MATERIALIZED (SELECT nextval(${client.escapeLiteral(sequences[t])}::regclass) AS v
                                   FROM generate_series(1, ${counts[t]})),
              m AS (SELECT min(v) AS lo, max(v) AS hi, count(*) AS n FROM v)
         SELECT CASE WHEN hi - lo + 1 = n THEN lo || ',' || n
                     ELSE (SELECT string_agg(v || ',1', ',' ORDER BY v) FROM v) END FROM m) AS ${t}`,
  );
  const { rows } = await client.query<Record<CopiedTable, string>>(`SELECT ${parts.join(', ')}`);
  const ids = {} as Record<CopiedTable, IdRuns>;
  for (const t of COPIED) ids[t] = rows[0]![t] === '' ? [] : rows[0]![t].split(',').map(Number);
  return ids;
}

/** Writes the batch's ids into its rows' placeholders: each row's own, and a child row's parent (its order, or a
 * history row's dispute; the documents' is their order). */
function fillIds(rows: Rows, ids: Record<CopiedTable, IdRuns>): void {
  const expand = (table: CopiedTable) => {
    const runs = ids[table];
    const all: number[] = [];
    for (let r = 0; r < runs.length; r += 2) for (let k = 0; k < runs[r + 1]!; k++) all.push(runs[r]! + k);
    if (all.length !== rows.counts[table])
      throw new Error(`${table}: ${all.length} ids for ${rows.counts[table]} rows`);
    return all;
  };
  const all = {} as Record<CopiedTable, number[]>;
  for (const table of COPIED) all[table] = expand(table);
  for (const table of COPIED) {
    const { data, lines, parents } = rows.tables[table];
    const own = all[table];
    const parentIds = table === 'documents' ? all.orders : table === 'orders' ? [] : all[PARENT_OF[table].table];
    for (let k = 0; k < lines.length; k++) {
      fillId(data, lines[k]!, own[k]!);
      if (parents) fillId(data, lines[k]! + ID_WIDTH + 1, parentIds[parents[k]!]!);
    }
  }
}

export async function copyLoad(opts: CopyLoadOptions): Promise<Counts> {
  const total = empty();
  const clients: pg.Client[] = [];
  let worker: Worker | undefined;
  let sealer: Worker | undefined;
  try {
    const control = await connect(opts.connectionString);
    clients.push(control);
    const lanes = await Promise.all(opts.lanes.map(() => connect(opts.connectionString)));
    clients.push(...lanes);
    const { rows: serials } = await control.query<Record<CopiedTable, string>>(
      `SELECT ${COPIED.map((t) => `pg_get_serial_sequence('${t}', 'id') AS ${t}`).join(', ')}`,
    );
    const sequences = serials[0]!;

    worker = new Worker(runnableFile(new URL('./generate-worker.js', import.meta.url)), {
      workerData: { ...opts.worker, window: WINDOW } satisfies GenerateWorkerData,
      // A large young generation: a batch's rows die young, and fewer scavenges promote fewer of them.
      resourceLimits: { maxYoungGenerationSizeMb: 96 },
    });
    sealer = new Worker(runnableFile(new URL('./seal-worker.js', import.meta.url)), {
      workerData: { keys: opts.keys } satisfies SealWorkerData,
      resourceLimits: { maxYoungGenerationSizeMb: 96 },
    });

    const failed = deferred<never>();
    let generated = false; // the worker has sent every batch
    // A batch goes from the generating worker to the sealing one and comes back whole, in the same order.
    const sealing: Rows[] = [];
    const arrived: Rows[] = []; // batches back from the sealing worker, still without ids
    let preparing = false;
    let accepted = 0; // batches given ids and handed to the lanes
    let completed = 0; // batches committed by every lane
    // Per lane, the batches still to copy and who waits for the next one.
    const queues = lanes.map(() => [] as Rows[]);
    const wake = lanes.map(() => null as (() => void) | null);
    const wakeAll = () => wake.forEach((w) => w?.());
    // Per batch, the first lane's commit (the others commit after it) and how many lanes are done with it.
    const firstCommitted = new Map<number, ReturnType<typeof deferred<void>>>();
    const lanesDone = new Map<number, number>();
    const commitOf = (batch: number) => {
      let d = firstCommitted.get(batch);
      if (!d) firstCommitted.set(batch, (d = deferred<void>()));
      return d;
    };
    const stopping = () => opts.signal?.aborted === true;
    // Every batch given ids is in, and no more will come: all of them, or a stop asked for (the batches generated
    // meanwhile are dropped before they take ids).
    const over = () =>
      completed === accepted &&
      !preparing &&
      (stopping() || (generated && sealing.length === 0 && arrived.length === 0));

    // Batch after batch in order: its ids from the sequences, filled in, then over to the lanes.
    const prepare = async () => {
      if (preparing) return;
      preparing = true;
      try {
        while (arrived.length > 0 && !stopping()) {
          const rows = arrived.shift()!;
          fillIds(rows, await takeIds(control, sequences, rows.counts));
          accepted++;
          queues.forEach((q) => q.push(rows));
          wakeAll();
        }
      } catch (err) {
        failed.reject(err);
      } finally {
        preparing = false;
      }
      wakeAll();
    };

    const runLane = async (lane: number) => {
      const client = lanes[lane]!;
      const tables = opts.lanes[lane]!;
      for (;;) {
        while (queues[lane]!.length === 0) {
          if (over()) return;
          await new Promise<void>((resolve) => (wake[lane] = resolve));
          wake[lane] = null;
        }
        const rows = queues[lane]!.shift()!;
        await client.query('BEGIN');
        try {
          for (const table of tables) {
            const { columns, data } = rows.tables[table];
            if (data.byteLength > 0) await copy(client, table, columns, data);
          }
          if (lane > 0) await commitOf(rows.batch).done;
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK').catch(() => undefined);
          if (lane === 0) commitOf(rows.batch).reject(err);
          throw err;
        }
        if (lane === 0) commitOf(rows.batch).resolve();
        const done = (lanesDone.get(rows.batch) ?? 0) + 1;
        lanesDone.set(rows.batch, done);
        if (done === lanes.length) {
          lanesDone.delete(rows.batch);
          firstCommitted.delete(rows.batch);
          completed++;
          for (const t of COPIED) total[t] += rows.counts[t];
          opts.onBatch?.(rows.counts);
          worker!.postMessage({ type: 'ack' } satisfies AckMessage);
          wakeAll();
        }
      }
    };

    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'batch') {
        sealing.push(m);
        const request: SealRequest = { batch: m.batch, orders: m.tables.orders, sensitive: m.sensitive };
        sealer!.postMessage(request, [m.tables.orders.data.buffer as ArrayBuffer]);
      } else {
        generated = true;
        wakeAll();
      }
    });
    sealer.on('message', (m: SealResult) => {
      const rows = sealing.shift()!;
      if (rows.batch !== m.batch) failed.reject(new Error(`batch ${m.batch} sealed out of turn (${rows.batch})`));
      rows.tables.orders = m.orders;
      arrived.push(rows);
      void prepare();
    });
    for (const [name, w] of [
      ['generating', worker],
      ['sealing', sealer],
    ] as const) {
      w.on('error', (err) => failed.reject(err));
      w.on('exit', (code) => {
        if (!generated) failed.reject(new Error(`the ${name} worker stopped (exit code ${code})`));
      });
    }
    opts.signal?.addEventListener('abort', wakeAll, { once: true });

    const laneRuns = lanes.map((_, lane) => runLane(lane));
    for (const run of laneRuns) run.catch((err: unknown) => failed.reject(err));
    await Promise.race([Promise.all(laneRuns), failed.done]);
  } finally {
    await Promise.all([worker?.terminate(), sealer?.terminate()]);
    // A lane still in a transaction (after a failure) rolls it back as its connection closes.
    await Promise.allSettled(clients.map((c) => c.end()));
  }
  opts.signal?.throwIfAborted();
  return total;
}
