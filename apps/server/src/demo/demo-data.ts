// Demo data for a first start and for load tests: demo staff of every role plus realistic orders with
// remarks, approval mails and downloads, a signature and (once approved) the approved document, the disputes of the
// orders in ChargeBack and the audit rows of what staff and gateways did, bulk-loaded batch by batch: on PostgreSQL
// with COPY from worker threads (copy-load.ts), on PGlite as JSON. The landing sites' first legal texts are dated
// before the first demo order, so every order agreed to texts already in force.
import { availableParallelism } from 'node:os';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { StaffType } from '@eta/contracts';
import type { DB } from '../db/schema.js';
import { hashPassword } from '../modules/auth/passwords.js';
import type { DocumentStore } from '../lib/storage/document-store.js';
import { DATA_KEY_KINDS, type Keyring } from '../lib/crypto/keyring.js';
import { OrderFieldsCipher, type SensitiveValues } from '../modules/personal-data/order-fields.js';
import { storeDemoFiles, type DemoFiles } from './demo-files.js';
import {
  CHILD_TABLES,
  DemoOrderGenerator,
  emptyBatch,
  PARENT_OF,
  type Batch,
  type GeneratorContext,
  type Row,
  type SeedStaff,
} from './generate.js';
import { COPIED, type Counts } from './copy-messages.js';
import { copyLoad } from './copy-load.js';
import { NO_STATEMENT_TIMEOUT, withStatementTimeout } from '../db/statement-budget.js';

export interface SeedOptions {
  orders: number;
  /** Where the demo signature and the demo approved document are stored (the server's own document store). */
  store: DocumentStore;
  /** The desk's data keys: each order's sensitive fields are sealed as the intake seals them (issue 24). */
  keyring: Keyring;
  /** PRNG seed; default 1. The same seed loaded into an empty database gives identical rows. */
  seed?: number;
  /** Password of the demo staff created by this call; default 'demo1234'. */
  staffPassword?: string;
  /** "Now" of the demo data (orders span the two years before it); default 2026-11-20T12:00:00Z. */
  reference?: Date;
  onProgress?: (progress: SeedProgress) => void;
  /** Stops the load after the current batch; indexes and counters are restored before it returns. */
  signal?: AbortSignal;
  /**
   * PostgreSQL's address (`db` being a pool on it): the rows are generated in a worker thread and streamed with COPY
   * FROM STDIN on connections of the loader's own. Without it (PGlite) they go in through `db` as JSON batches; both
   * ways give the same rows.
   */
  connectionString?: string;
  /**
   * Above this many orders the loaded tables' secondary indexes and foreign keys are set aside during the
   * load and restored once afterwards; default 50,000 (below it, keeping them costs less than rebuilding).
   */
  bulkLoadAbove?: number;
  /** Orders per batch (one transaction each); default 5,000. */
  batchSize?: number;
}

export interface SeedProgress {
  phase: 'orders' | 'indexes' | 'done';
  inserted: number;
  total: number;
}

export interface SeedResult {
  orders: number;
  /** Demo staff created by this call (existing e-mails are left alone); they share `staffPassword`. */
  staff: { name: string; email: string; type: StaffType }[];
  staffPassword: string;
  firstOrderId: string | null;
  lastOrderId: string | null;
  remarks: number;
  mails: number;
  downloads: number;
  /** Disputes of the orders in ChargeBack. */
  disputes: number;
  /** Audit rows of the orders (their comments, their disputes' webhooks and evidence). */
  auditRows: number;
  /** Seconds of each part of the load: the rows, then what a large load set aside and the counters. */
  seconds: SeedSeconds;
}

export interface SeedSeconds {
  /** Generating and inserting the rows. */
  rows: number;
  /** From the rows loaded to the end: indexes, foreign keys, counters, VACUUM ANALYZE, partly side by side. */
  finish: number;
  /** Within `finish`, how long each kind of work took (summed over the two connections, so they overlap). */
  indexes: number;
  keys: number;
  counters: number;
  vacuum: number;
}

export const DEFAULT_REFERENCE = new Date('2026-11-20T12:00:00Z');
export const MAX_SEED_ORDERS = 10_000_000;

export const DEMO_STAFF: readonly { name: string; email: string; type: StaffType }[] = [
  { name: 'Grace Whitfield', email: 'demo.admin@eta-desk.local', type: 'Admin' },
  { name: 'Rajesh Menon', email: 'manager1@eta-desk.local', type: 'Manager' },
  { name: 'Claire Dubois', email: 'manager2@eta-desk.local', type: 'Manager' },
  { name: 'Priya Sharma', email: 'team1@eta-desk.local', type: 'Team' },
  { name: 'Marcus Johnson', email: 'team2@eta-desk.local', type: 'Team' },
  { name: 'Sofia Rossi', email: 'team3@eta-desk.local', type: 'Team' },
  { name: 'Kenji Watanabe', email: 'team4@eta-desk.local', type: 'Team' },
  { name: 'Amara Nwosu', email: 'team5@eta-desk.local', type: 'Team' },
  { name: 'Lucas Moreau', email: 'team6@eta-desk.local', type: 'Team' },
  { name: 'Fatima Haddad', email: 'telecaller1@eta-desk.local', type: 'Telecaller' },
  { name: 'Diego Ramírez', email: 'telecaller2@eta-desk.local', type: 'Telecaller' },
  { name: 'Aisha Karimi', email: 'night1@eta-desk.local', type: 'Night Staff' },
  { name: 'Tom Becker', email: 'night2@eta-desk.local', type: 'Night Staff' },
];

const BULK_LOAD_ABOVE = 50_000;
const BATCH_SIZE = 5_000;
/** Orders per COPY batch (one transaction per connection). */
const COPY_BATCH_SIZE = 5_000;
/** Generation yields to the event loop this often, so the previous batch streams to the server meanwhile. */
const GENERATE_CHUNK = 500;
const PROGRESS_EVERY = 100_000;
const FIRST_ORDER_NUMBER = 200_000_001;
/** Demo ids stay below the intake's random ids (ETA-300000000 and up), so the two never meet. */
const LAST_ORDER_NUMBER = 299_999_999;
/** Advisory lock held while seeding: two processes starting on one empty database seed it once. */
const SEED_LOCK = 0x45_54_41_53; // 'ETAS'

type Table = keyof Batch;
const TABLES: readonly Table[] = ['orders', ...CHILD_TABLES];
/** Tables a load writes: the batches' own, and documents (one row per approved order, made from the orders). */
const LOADED = [...TABLES, 'documents'] as const;

/**
 * `INSERT INTO t (cols) SELECT cols FROM json_populate_recordset(NULL::t, $json)`: one text parameter per
 * table, cheap on both drivers. The columns are the keys the rows use; a key a row lacks is NULL there, and
 * columns no row mentions keep their defaults.
 */
function insertJson(table: Table, rows: Row<Table>[], returning = sql``) {
  const keys = new Set<string>();
  for (const row of rows) for (const key in row) keys.add(key);
  const cols = sql.join([...keys].map((k) => sql.ref(k)));
  return sql`${sql.id(table)} AS (
    INSERT INTO ${sql.table(table)} (${cols})
    SELECT ${cols} FROM json_populate_recordset(NULL::${sql.table(table)}, ${JSON.stringify(rows)}::json)${returning})`;
}

/**
 * One statement per batch, so one transaction: the orders and their remarks, mails and downloads, and the
 * approved document of every order someone completed (processed_at), all pointing at the one stored demo file.
 */
function batchInsert(b: Batch, files: DemoFiles) {
  const { key, size, sha256 } = files.document;
  const parts = TABLES.filter((t) => b[t].length > 0).map((t) =>
    insertJson(t, b[t], t === 'orders' ? sql` RETURNING id, order_id, processed_by, processed_at` : sql``),
  );
  const documents = sql`approved_documents AS (
    INSERT INTO documents (order_id, storage_key, original_name, content_type, size_bytes, sha256, uploaded_by, created_at)
    SELECT id, ${key}, 'eTA-' || order_id || '.pdf', 'application/pdf', ${size}, ${sha256}, processed_by, processed_at
      FROM orders WHERE processed_at IS NOT NULL)`;
  return sql`WITH ${sql.join([...parts, documents])} SELECT 1`;
}

export async function seedDemoData(db: Kysely<DB>, opts: SeedOptions): Promise<SeedResult> {
  return (await seed(db, opts, false))!;
}

/** Seeds only a database without orders (the first start); null when there were orders already. */
export async function seedDemoDataIfEmpty(db: Kysely<DB>, opts: SeedOptions): Promise<SeedResult | null> {
  return seed(db, opts, true);
}

async function seed(db: Kysely<DB>, opts: SeedOptions, onlyIfEmpty: boolean): Promise<SeedResult | null> {
  const total = opts.orders;
  if (!Number.isInteger(total) || total < 0 || total > MAX_SEED_ORDERS) {
    throw new RangeError(`orders must be a whole number from 0 to ${MAX_SEED_ORDERS}, got ${total}`);
  }
  const staffPassword = opts.staffPassword ?? 'demo1234';
  // No statement budget (db/statement-budget.ts): a batch is one statement of thousands of rows, and a large load
  // rebuilds indexes for minutes; whoever seeds watches the load itself.
  // One connection for the whole run: the advisory lock is per session, and PGlite has only one.
  return withStatementTimeout(NO_STATEMENT_TIMEOUT, () =>
    db.connection().execute(async (conn) => {
      await sql`SELECT pg_advisory_lock(${sql.lit(SEED_LOCK)})`.execute(conn);
      try {
        if (onlyIfEmpty && (await conn.selectFrom('orders').select('id').limit(1).executeTakeFirst())) return null;
        const { created, staff } = await ensureDemoStaff(conn, staffPassword);
        const loaded = await loadOrders(db, conn, total, opts, staff);
        return { ...loaded, staff: created, staffPassword };
      } finally {
        await sql`SELECT pg_advisory_unlock(${sql.lit(SEED_LOCK)})`.execute(conn);
      }
    }),
  );
}

/** Creates the demo staff whose e-mail is not taken yet (one argon2 hash shared by all of them). */
async function ensureDemoStaff(
  db: Kysely<DB>,
  password: string,
): Promise<{ created: SeedResult['staff']; staff: SeedStaff[] }> {
  const emails = DEMO_STAFF.map((s) => s.email.toLowerCase());
  const existing = () =>
    db
      .selectFrom('staff')
      .select(['id', 'name', 'email', 'type'])
      .where((eb) => eb(eb.fn('lower', ['email']), 'in', emails))
      .execute();
  const before = new Set((await existing()).map((s) => s.email.toLowerCase()));
  const missing = DEMO_STAFF.filter((s) => !before.has(s.email.toLowerCase()));
  if (missing.length > 0) {
    const passwordHash = await hashPassword(password);
    await db
      .insertInto('staff')
      .values(missing.map((s) => ({ name: s.name, email: s.email, password_hash: passwordHash, type: s.type })))
      .execute();
  }
  const byEmail = new Map((await existing()).map((s) => [s.email.toLowerCase(), s]));
  // Demo-list order, not id order, so the generator picks the same people whatever the ids are.
  const staff = emails.map((e) => byEmail.get(e)!).map(({ id, name, type }) => ({ id, name, type }));
  return { created: missing.map(({ name, email, type }) => ({ name, email, type })), staff };
}

async function loadOrders(
  pool: Kysely<DB>,
  conn: Kysely<DB>,
  total: number,
  opts: SeedOptions,
  staff: SeedStaff[],
): Promise<Omit<SeedResult, 'staff' | 'staffPassword'>> {
  const result: Omit<SeedResult, 'staff' | 'staffPassword'> = {
    orders: 0,
    firstOrderId: null,
    lastOrderId: null,
    remarks: 0,
    mails: 0,
    downloads: 0,
    disputes: 0,
    auditRows: 0,
    seconds: { rows: 0, finish: 0, indexes: 0, keys: 0, counters: 0, vacuum: 0 },
  };
  if (total === 0) return result;
  const started = performance.now();
  const { rows } = await sql<{ max: string | null }>`
    SELECT max(order_id) AS max FROM orders WHERE order_id <= ${`ETA-${LAST_ORDER_NUMBER}`}`.execute(conn);
  const firstNumber = rows[0]?.max ? Number(rows[0].max.slice(4)) + 1 : FIRST_ORDER_NUMBER;
  if (firstNumber + total - 1 > LAST_ORDER_NUMBER) {
    throw new RangeError(`order ids would pass ETA-${LAST_ORDER_NUMBER}; load fewer orders`);
  }
  await dateFirstLegalTexts(conn, opts.reference ?? DEFAULT_REFERENCE);
  const sites = await conn.selectFrom('landing_sites').select(['key', 'display_name']).orderBy('key').execute();
  const gateways = await conn.selectFrom('gateways').select(['id', 'gateway_name']).orderBy('id').execute();
  const files = await storeDemoFiles(opts.store);
  const context: GeneratorContext = {
    seed: opts.seed ?? 1,
    firstNumber,
    total,
    reference: (opts.reference ?? DEFAULT_REFERENCE).getTime(),
    staff,
    sites: sites.map((s) => ({ key: s.key, displayName: s.display_name })),
    gateways: gateways.map((g) => ({ id: g.id, name: g.gateway_name })),
    signatureKey: files.signatureKey,
  };

  const { rows: about } = await sql<{ embedded: boolean } & Record<Table, string>>`
    SELECT version() LIKE '%wasm%' AS embedded,
           ${sql.join(TABLES.map((t) => sql`pg_get_serial_sequence(${t}, 'id') AS ${sql.ref(t)}`))}`.execute(conn);
  const server = about[0]!;
  const viaCopy = !server.embedded && opts.connectionString !== undefined;

  const large = total > (opts.bulkLoadAbove ?? BULK_LOAD_ABOVE);
  const indexes = large ? await dropLoadIndexes(conn) : [];
  const foreignKeys = large ? await dropLoadForeignKeys(conn) : [];
  // Counters (folder counts, report counts) are rebuilt once at the end instead of trigger calls per row.
  await sql`ALTER TABLE orders DISABLE TRIGGER orders_count`.execute(conn);
  await sql`ALTER TABLE orders DISABLE TRIGGER orders_report_count`.execute(conn);
  const loaded = (counts: Pick<Counts, Table>) => {
    const before = result.orders;
    result.orders += counts.orders;
    result.remarks += counts.remarks;
    result.mails += counts.mails;
    result.downloads += counts.downloads;
    result.disputes += counts.disputes;
    result.auditRows += counts.audit_log;
    if (Math.floor(result.orders / PROGRESS_EVERY) > Math.floor(before / PROGRESS_EVERY)) {
      opts.onProgress?.({ phase: 'orders', inserted: result.orders, total });
    }
  };
  try {
    if (viaCopy) {
      await copyLoad({
        connectionString: opts.connectionString!,
        worker: { context, batchSize: opts.batchSize ?? COPY_BATCH_SIZE, document: files.document },
        keys: DATA_KEY_KINDS.map((kind) => opts.keyring.current(kind)),
        // Without foreign keys each table has a connection of its own: the orders' and the child tables' COPY side
        // by side. With them, one connection, each batch's orders before their remarks in one transaction.
        lanes: large ? [['orders', 'documents'], CHILD_TABLES] : [COPIED],
        signal: opts.signal,
        onBatch: loaded,
      });
    } else {
      await insertBatches(pool, conn, server, new DemoOrderGenerator(context), files, opts, loaded);
    }
  } finally {
    result.seconds.rows = (performance.now() - started) / 1000;
    if (indexes.length > 0) opts.onProgress?.({ phase: 'indexes', inserted: result.orders, total });
    if (viaCopy) {
      // On connections of the loader's own, without the pool's statement budget: an index build takes minutes.
      const own = new Kysely<DB>({
        dialect: new PostgresDialect({
          pool: new pg.Pool({
            connectionString: opts.connectionString,
            max: 2,
            options: '-c TimeZone=UTC -c statement_timeout=0',
          }),
        }),
      });
      try {
        await own
          .connection()
          .execute((c) => restoreAfterLoad(own, c, server.embedded, indexes, foreignKeys, result.seconds));
      } finally {
        await own.destroy();
      }
    } else {
      await restoreAfterLoad(pool, conn, server.embedded, indexes, foreignKeys, result.seconds);
    }
  }
  if (result.orders > 0) {
    result.firstOrderId = `ETA-${firstNumber}`;
    result.lastOrderId = `ETA-${firstNumber + result.orders - 1}`;
  }
  opts.onProgress?.({ phase: 'done', inserted: result.orders, total });
  return result;
}

/** How far back demo orders go before the reference time (generate.ts makes them in its last two years). */
const DEMO_SPAN_DAYS = 731;

/**
 * Every demo order agreed to version 1 of its site's legal texts. The version the migrations made (no author: the
 * texts the site started with) is dated from the day the demo data begins, so an order's defence pack never quotes
 * texts "in force since" after its customer signed. Versions are never changed, by trigger (migration 014): it is
 * set aside for this one update, inside its transaction, as migration 024 does for the audit trail.
 */
async function dateFirstLegalTexts(conn: Kysely<DB>, reference: Date): Promise<void> {
  const day = 86_400_000;
  const since = new Date(Math.floor((reference.getTime() - DEMO_SPAN_DAYS * day) / day) * day);
  const later = sql`version = 1 AND created_by IS NULL AND created_at > ${since}`;
  await conn.transaction().execute(async (trx) => {
    const { rows } = await sql`SELECT 1 FROM legal_texts WHERE ${later} LIMIT 1`.execute(trx);
    if (rows.length === 0) return;
    await sql`ALTER TABLE legal_texts DISABLE TRIGGER legal_texts_no_update`.execute(trx);
    await sql`UPDATE legal_texts SET created_at = ${since} WHERE ${later}`.execute(trx);
    await sql`ALTER TABLE legal_texts ENABLE TRIGGER legal_texts_no_update`.execute(trx);
  });
}

/**
 * PGlite's way (no COPY through Kysely): each batch one INSERT statement of JSON, generated on this thread in small
 * chunks while the previous batch streams out. On a PostgreSQL server without a connection string, two batches at a
 * time through the pool.
 */
async function insertBatches(
  pool: Kysely<DB>,
  conn: Kysely<DB>,
  server: { embedded: boolean } & Record<Table, string>,
  generator: DemoOrderGenerator,
  files: DemoFiles,
  opts: SeedOptions,
  loaded: (counts: Pick<Counts, Table>) => void,
): Promise<void> {
  // PGlite has a single connection (this one); a PostgreSQL server takes two batches at a time.
  const lanes = server.embedded ? 1 : 2;
  const exec = server.embedded ? conn : pool;
  const running = new Set<Promise<void>>();
  try {
    const position = { orders: 0, disputes: 0 };
    for (;;) {
      opts.signal?.throwIfAborted();
      const batch = await generate(generator, opts.batchSize ?? BATCH_SIZE, new OrderFieldsCipher(opts.keyring));
      if (batch.orders.length === 0) break;
      // Ids are reserved here, batch after batch, so they follow the order ids even with two batches in flight.
      await assignIds(conn, server, batch, position);
      position.orders += batch.orders.length;
      position.disputes += batch.disputes.length;
      while (running.size >= lanes) await Promise.race(running);
      const task = batchInsert(batch, files)
        .execute(exec)
        .then(() => {
          running.delete(task);
          loaded(Object.fromEntries(TABLES.map((t) => [t, batch[t].length])) as Record<Table, number>);
        });
      task.catch(() => undefined); // awaited through `running`; this keeps Node from calling it unhandled meanwhile
      running.add(task);
    }
    await Promise.all(running);
  } finally {
    await Promise.allSettled(running);
  }
}

/**
 * Takes ids for the batch's rows from the tables' own sequences and writes them in: `id` of every row, and the
 * parent of the child rows (`order_id`, a history row's `dispute_id`), given as the parent's position in the run.
 */
async function assignIds(
  conn: Kysely<DB>,
  sequences: Record<Table, string>,
  batch: Batch,
  position: { orders: number; disputes: number },
) {
  const take = (table: Table) =>
    sql`(SELECT string_agg(v::text, ',' ORDER BY v)
           FROM (SELECT nextval(${sequences[table]}::regclass) AS v
                   FROM generate_series(1, ${batch[table].length})) s) AS ${sql.ref(table)}`;
  const { rows } = await sql<Record<Table, string | null>>`SELECT ${sql.join(TABLES.map(take))}`.execute(conn);
  const ids = {} as Record<Table, number[]>;
  for (const table of TABLES) ids[table] = rows[0]![table]?.split(',').map(Number) ?? [];
  batch.orders.forEach((row, k) => (row.id = ids.orders[k]!));
  for (const table of CHILD_TABLES) {
    const { column, table: parent } = PARENT_OF[table];
    const rowsOf = batch[table] as Record<string, unknown>[];
    rowsOf.forEach((row, k) => {
      row.id = ids[table][k]!;
      row[column] = ids[parent][Number(row[column]) - position[parent]]!;
    });
  }
}

/** Generates one batch in small chunks, letting the previous batch's query stream out in between. */
async function generate(generator: DemoOrderGenerator, size: number, fields: OrderFieldsCipher): Promise<Batch> {
  const out = emptyBatch();
  while (out.orders.length < size && generator.remaining > 0) {
    const part = generator.batch(Math.min(GENERATE_CHUNK, size - out.orders.length));
    for (const row of part.orders) Object.assign(row, fields.seal(row.order_id as string, row as SensitiveValues));
    for (const table of TABLES) (out[table] as unknown[]).push(...part[table]);
    await nextTurn();
  }
  return out;
}

interface IndexDefinition {
  table: string;
  name: string;
  definition: string;
  settings: string[];
}

/** The tables a load writes; their secondary indexes and foreign keys are set aside during a large one. */
const LOADED_TABLES = sql`(${sql.join(LOADED.map((t) => sql`${t}::regclass`))})`;

/**
 * Drops the secondary indexes of the loaded tables (not primary keys nor unique ones) and returns their
 * definitions exactly as the database reports them, so restoreAfterLoad restores them unchanged.
 */
async function dropLoadIndexes(conn: Kysely<DB>): Promise<IndexDefinition[]> {
  const { rows } = await sql<{ table: string; name: string; definition: string }>`
    SELECT i.indrelid::regclass::text AS table, c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
      FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE i.indrelid IN ${LOADED_TABLES} AND NOT i.indisunique
     ORDER BY 1`.execute(conn);
  // Per-column statistics targets (e.g. on the search index) are not part of the definition; keep them too.
  const { rows: targets } = await sql<{ name: string; attnum: number; target: number }>`
    SELECT c.relname AS name, a.attnum, a.attstattarget AS target
      FROM pg_index i
      JOIN pg_class c ON c.oid = i.indexrelid
      JOIN pg_attribute a ON a.attrelid = i.indexrelid
     WHERE i.indrelid IN ${LOADED_TABLES} AND a.attstattarget >= 0`.execute(conn);
  for (const { name } of rows) await sql`DROP INDEX ${sql.id(name)}`.execute(conn);
  return rows.map((r) => ({
    ...r,
    settings: targets
      .filter((t) => t.name === r.name)
      .map((t) => `ALTER INDEX "${t.name}" ALTER COLUMN ${t.attnum} SET STATISTICS ${t.target}`),
  }));
}

interface ForeignKey {
  table: string;
  name: string;
  definition: string;
}

/**
 * Drops the foreign keys of the loaded tables and returns them. Checked row by row they made the load several
 * times slower (a child row cost 8.5 µs with its check, 1.2 µs without); restored, each is checked once over the
 * whole table by one join.
 */
async function dropLoadForeignKeys(conn: Kysely<DB>): Promise<ForeignKey[]> {
  const { rows } = await sql<ForeignKey>`
    SELECT conrelid::regclass::text AS table, conname AS name, pg_get_constraintdef(oid) AS definition
      FROM pg_constraint WHERE contype = 'f' AND conrelid IN ${LOADED_TABLES}
     ORDER BY 1, 2`.execute(conn);
  for (const { table, name } of rows) {
    await sql`ALTER TABLE ${sql.id(table)} DROP CONSTRAINT ${sql.id(name)}`.execute(conn);
  }
  return rows;
}

/**
 * Puts back what the load set aside and rebuilds the counters, on a PostgreSQL server on two connections side by
 * side (PGlite, with one, does the same in turn). The foreign keys come back NOT VALID first (a moment's lock) and are
 * checked (VALIDATE) apart, which locks only their own table. On the first connection, what must lock orders alone:
 * its VACUUM (the visibility map, for index-only scans; it also spares the index builds' scans checking each row's
 * visibility) and the check of its foreign keys; on the second, the child tables' indexes, key checks and VACUUM
 * ANALYZE. Then both take orders' indexes one at a time, the search GIN first, and the counters last. Last of all
 * ANALYZE, once every index is there for its expressions' statistics.
 */
async function restoreAfterLoad(
  pool: Kysely<DB>,
  conn: Kysely<DB>,
  embedded: boolean,
  indexes: IndexDefinition[],
  foreignKeys: ForeignKey[],
  seconds: SeedSeconds,
): Promise<void> {
  const started = performance.now();
  const timed = async (part: Exclude<keyof SeedSeconds, 'rows' | 'finish'>, work: () => Promise<void>) => {
    const since = performance.now();
    await work();
    seconds[part] += (performance.now() - since) / 1000;
  };
  // Two connections: this one and another of the pool, each in its own transaction when it builds indexes.
  const side = async (work: (db: Kysely<DB>) => Promise<void>) =>
    embedded ? work(conn) : pool.connection().execute((other) => work(other));
  const both = async (first: (db: Kysely<DB>) => Promise<void>, second: (db: Kysely<DB>) => Promise<void>) => {
    if (embedded) return first(conn).then(() => second(conn));
    // Both run to their end before a failure of either is thrown: neither is left running on its connection.
    const settled = await Promise.allSettled([first(conn), side(second)]);
    for (const s of settled) if (s.status === 'rejected') throw s.reason;
  };

  for (const { table, name, definition } of foreignKeys) {
    await sql`ALTER TABLE ${sql.id(table)} ADD CONSTRAINT ${sql.id(name)} ${sql.raw(definition)} NOT VALID`.execute(
      conn,
    );
  }
  const validate = (db: Kysely<DB>, keys: ForeignKey[]) =>
    timed('keys', async () => {
      for (const { table, name } of keys) {
        await sql`ALTER TABLE ${sql.id(table)} VALIDATE CONSTRAINT ${sql.id(name)}`.execute(db);
      }
    });
  const ofOrders = <T extends { table: string }>(list: T[], orders: boolean) =>
    list.filter((x) => (x.table === 'orders') === orders);
  // The counters, rebuilt in one transaction that first locks out writers to orders, so no order changes between the
  // rebuild and the triggers taking over again (turning them on waits for any index build still running).
  const rebuildCounters = (db: Kysely<DB>) =>
    db.transaction().execute(async (trx) => {
      await sql`LOCK TABLE orders IN SHARE MODE`.execute(trx);
      await timed('counters', async () => {
        await sql`SELECT rebuild_order_counters()`.execute(trx);
        await sql`SELECT rebuild_report_counters()`.execute(trx);
      });
      await sql`ALTER TABLE orders ENABLE TRIGGER orders_count`.execute(trx);
      await sql`ALTER TABLE orders ENABLE TRIGGER orders_report_count`.execute(trx);
    });
  // Orders' work once it is free: its indexes, the search GIN (the longest build by far) first, then the counters.
  // Each connection takes the next piece as it finishes the last, so neither idles while the other has a queue.
  const isGin = (i: IndexDefinition) => Number(/ USING gin /i.test(i.definition));
  const ordersWork: ((db: Kysely<DB>) => Promise<void>)[] = [
    ...ofOrders(indexes, true)
      .sort((x, y) => isGin(y) - isGin(x))
      .map((index) => (db: Kysely<DB>) => timed('indexes', () => buildIndexes(db, [index]))),
    rebuildCounters,
  ];
  const takeOrdersWork = async (db: Kysely<DB>) => {
    for (let next = ordersWork.shift(); next; next = ordersWork.shift()) await next(db);
  };

  // Orders' own VACUUM and key checks lock out its index builds (and the builds them): they come first.
  let ordersFree!: () => void;
  const ordersFreed = new Promise<void>((resolve) => (ordersFree = resolve));
  await both(
    async (db) => {
      try {
        await timed('vacuum', () => sql`VACUUM orders`.execute(db).then(() => undefined));
        await validate(db, ofOrders(foreignKeys, true));
      } finally {
        ordersFree();
      }
      await takeOrdersWork(db);
    },
    async (db) => {
      await timed('indexes', () => buildIndexes(db, ofOrders(indexes, false)));
      await validate(db, ofOrders(foreignKeys, false));
      await timed('vacuum', () =>
        sql`VACUUM (ANALYZE) remarks, mails, downloads, documents, disputes, dispute_history, audit_log`
          .execute(db)
          .then(() => undefined),
      );
      await ordersFreed;
      await takeOrdersWork(db);
    },
  );
  await timed('vacuum', () =>
    sql`VACUUM (ANALYZE) orders, order_counters, order_report_counts, processed_report_counts`
      .execute(conn)
      .then(() => undefined),
  );
  seconds.finish = (performance.now() - started) / 1000;
}

/**
 * Parallel workers of each index build. Two connections build side by side, so each takes half the cores, itself
 * included (the cores of this machine, where the database usually is too): on two cores none, where they would only
 * take turns with the other connection's build (PostgreSQL's own default is two).
 */
const PARALLEL_BUILD_WORKERS = Math.max(0, Math.floor(availableParallelism() / 2) - 1);

/** Builds indexes again as they were, in one transaction on one connection. */
function buildIndexes(db: Kysely<DB>, list: IndexDefinition[]): Promise<void> {
  if (list.length === 0) return Promise.resolve();
  return db.transaction().execute(async (trx) => {
    await sql`SET LOCAL maintenance_work_mem = '1GB'`.execute(trx);
    await sql`SET LOCAL max_parallel_maintenance_workers = ${sql.lit(PARALLEL_BUILD_WORKERS)}`.execute(trx);
    for (const { definition, settings } of list) {
      await sql.raw(definition).execute(trx);
      for (const setting of settings) await sql.raw(setting).execute(trx);
    }
  });
}
