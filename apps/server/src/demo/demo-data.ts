// Demo data for a first start and for load tests: demo staff of every role plus realistic orders with
// remarks, approval mails and downloads, a signature and (once approved) the approved document, bulk-loaded batch
// by batch (a million orders in under two minutes).
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { StaffType } from '@eta/contracts';
import type { DB } from '../db/schema.js';
import { hashPassword } from '../modules/auth/passwords.js';
import type { DocumentStore } from '../lib/storage/document-store.js';
import type { Keyring } from '../lib/crypto/keyring.js';
import { OrderFieldsCipher, type SensitiveValues } from '../modules/personal-data/order-fields.js';
import { storeDemoFiles, type DemoFiles } from './demo-files.js';
import { DemoOrderGenerator, type Batch, type Row, type SeedStaff } from './generate.js';

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
   * Above this many orders the loaded tables' secondary indexes and foreign keys are set aside during the
   * load and restored once afterwards; default 50,000 (below it, keeping them costs less than rebuilding).
   */
  bulkLoadAbove?: number;
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
/** Generation yields to the event loop this often, so the previous batch streams to the server meanwhile. */
const GENERATE_CHUNK = 500;
const PROGRESS_EVERY = 100_000;
const FIRST_ORDER_NUMBER = 200_000_001;
/** Demo ids stay below the intake's random ids (ETA-300000000 and up), so the two never meet. */
const LAST_ORDER_NUMBER = 299_999_999;
/** Advisory lock held while seeding: two processes starting on one empty database seed it once. */
const SEED_LOCK = 0x45_54_41_53; // 'ETAS'

type Table = 'orders' | 'remarks' | 'mails' | 'downloads';
const TABLES: readonly Table[] = ['orders', 'remarks', 'mails', 'downloads'];
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
  // One connection for the whole run: the advisory lock is per session, and PGlite has only one.
  return db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(${sql.lit(SEED_LOCK)})`.execute(conn);
    try {
      if (onlyIfEmpty && (await conn.selectFrom('orders').select('id').limit(1).executeTakeFirst())) return null;
      const { created, staff } = await ensureDemoStaff(conn, staffPassword);
      const loaded = await loadOrders(db, conn, total, opts, staff);
      return { ...loaded, staff: created, staffPassword };
    } finally {
      await sql`SELECT pg_advisory_unlock(${sql.lit(SEED_LOCK)})`.execute(conn);
    }
  });
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
  };
  if (total === 0) return result;
  const { rows } = await sql<{ max: string | null }>`
    SELECT max(order_id) AS max FROM orders WHERE order_id <= ${`ETA-${LAST_ORDER_NUMBER}`}`.execute(conn);
  const firstNumber = rows[0]?.max ? Number(rows[0].max.slice(4)) + 1 : FIRST_ORDER_NUMBER;
  if (firstNumber + total - 1 > LAST_ORDER_NUMBER) {
    throw new RangeError(`order ids would pass ETA-${LAST_ORDER_NUMBER}; load fewer orders`);
  }
  const sites = await conn.selectFrom('landing_sites').select(['key', 'display_name']).orderBy('key').execute();
  const gateways = await conn.selectFrom('gateways').select(['id', 'gateway_name']).orderBy('id').execute();
  const files = await storeDemoFiles(opts.store);
  const generator = new DemoOrderGenerator({
    seed: opts.seed ?? 1,
    firstNumber,
    total,
    reference: (opts.reference ?? DEFAULT_REFERENCE).getTime(),
    staff,
    sites: sites.map((s) => ({ key: s.key, displayName: s.display_name })),
    gateways: gateways.map((g) => ({ id: g.id, name: g.gateway_name })),
    signatureKey: files.signatureKey,
  });

  const { rows: about } = await sql<{ embedded: boolean } & Record<Table, string>>`
    SELECT version() LIKE '%wasm%' AS embedded,
           pg_get_serial_sequence('orders', 'id') AS orders,
           pg_get_serial_sequence('remarks', 'id') AS remarks,
           pg_get_serial_sequence('mails', 'id') AS mails,
           pg_get_serial_sequence('downloads', 'id') AS downloads`.execute(conn);
  const server = about[0]!;
  // PGlite has a single connection (this one); a PostgreSQL server takes two batches at a time.
  const lanes = server.embedded ? 1 : 2;
  const exec = server.embedded ? conn : pool;

  const large = total > (opts.bulkLoadAbove ?? BULK_LOAD_ABOVE);
  const indexes = large ? await dropLoadIndexes(conn) : [];
  const foreignKeys = large ? await dropLoadForeignKeys(conn) : [];
  // Counters (folder counts, report counts) are rebuilt once at the end instead of trigger calls per row.
  await sql`ALTER TABLE orders DISABLE TRIGGER orders_count`.execute(conn);
  await sql`ALTER TABLE orders DISABLE TRIGGER orders_report_count`.execute(conn);
  const running = new Set<Promise<void>>();
  try {
    let position = 0;
    for (;;) {
      opts.signal?.throwIfAborted();
      const batch = await generate(generator, BATCH_SIZE, new OrderFieldsCipher(opts.keyring));
      if (batch.orders.length === 0) break;
      // Ids are reserved here, batch after batch, so they follow the order ids even with two batches in flight.
      await assignIds(conn, server, batch, position);
      position += batch.orders.length;
      while (running.size >= lanes) await Promise.race(running);
      const task = batchInsert(batch, files)
        .execute(exec)
        .then(() => {
          running.delete(task);
          const before = result.orders;
          result.orders += batch.orders.length;
          result.remarks += batch.remarks.length;
          result.mails += batch.mails.length;
          result.downloads += batch.downloads.length;
          if (Math.floor(result.orders / PROGRESS_EVERY) > Math.floor(before / PROGRESS_EVERY)) {
            opts.onProgress?.({ phase: 'orders', inserted: result.orders, total });
          }
        });
      task.catch(() => undefined); // awaited through `running`; this keeps Node from calling it unhandled meanwhile
      running.add(task);
    }
    await Promise.all(running);
  } finally {
    await Promise.allSettled(running);
    if (indexes.length > 0) opts.onProgress?.({ phase: 'indexes', inserted: result.orders, total });
    await restoreAfterLoad(pool, conn, server.embedded, indexes, foreignKeys);
  }
  if (result.orders > 0) {
    result.firstOrderId = `ETA-${firstNumber}`;
    result.lastOrderId = `ETA-${firstNumber + result.orders - 1}`;
  }
  opts.onProgress?.({ phase: 'done', inserted: result.orders, total });
  return result;
}

/**
 * Takes ids for the batch's rows from the tables' own sequences and writes them in: `id` of every row, and
 * `order_id` of the child rows (their order's position in the run until now).
 */
async function assignIds(conn: Kysely<DB>, sequences: Record<Table, string>, batch: Batch, position: number) {
  const take = (table: Table) =>
    sql`(SELECT string_agg(v::text, ',' ORDER BY v)
           FROM (SELECT nextval(${sequences[table]}::regclass) AS v
                   FROM generate_series(1, ${batch[table].length})) s) AS ${sql.ref(table)}`;
  const { rows } = await sql<Record<Table, string | null>>`
    SELECT ${take('orders')}, ${take('remarks')}, ${take('mails')}, ${take('downloads')}`.execute(conn);
  const ids = (table: Table) => rows[0]![table]?.split(',').map(Number) ?? [];
  const orderIds = ids('orders');
  batch.orders.forEach((row, k) => (row.id = orderIds[k]!));
  for (const table of ['remarks', 'mails', 'downloads'] as const) {
    const own = ids(table);
    batch[table].forEach((row, k) => {
      row.id = own[k]!;
      row.order_id = orderIds[Number(row.order_id) - position]!;
    });
  }
}

/** Generates one batch in small chunks, letting the previous batch's query stream out in between. */
async function generate(generator: DemoOrderGenerator, size: number, fields: OrderFieldsCipher): Promise<Batch> {
  const out: Batch = { orders: [], remarks: [], mails: [], downloads: [] };
  while (out.orders.length < size && generator.remaining > 0) {
    const part = generator.batch(Math.min(GENERATE_CHUNK, size - out.orders.length));
    for (const row of part.orders) Object.assign(row, fields.seal(row.order_id as string, row as SensitiveValues));
    out.orders.push(...part.orders);
    out.remarks.push(...part.remarks);
    out.mails.push(...part.mails);
    out.downloads.push(...part.downloads);
    await nextTurn();
  }
  return out;
}

interface IndexDefinition {
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
  const { rows } = await sql<{ name: string; definition: string }>`
    SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
      FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE i.indrelid IN ${LOADED_TABLES} AND NOT i.indisunique
     ORDER BY 1`.execute(conn);
  // Per-column statistics targets (e.g. on the search index) are not part of the definition; keep them too.
  const { rows: targets } = await sql<{ name: string; attnum: number; target: number }>`
    SELECT c.relname AS name, a.attnum, a.attstattarget AS target
      FROM pg_index i
      JOIN pg_class c ON c.oid = i.indexrelid
      JOIN pg_attribute a ON a.attrelid = i.indexrelid
     WHERE i.indrelid IN ${LOADED_TABLES} AND a.attstattarget > 0`.execute(conn);
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
 * Puts back what the load set aside, the slow parts side by side on a PostgreSQL server. The search index (GIN,
 * ~26 s at a million orders) builds on a second connection; meanwhile this one builds the B-trees (~10 s), checks
 * the child tables' foreign keys and vacuums those tables. That is why the foreign keys come back NOT VALID first
 * (a moment's lock): adding a checked one locks orders against an index build, while checking it afterwards
 * (VALIDATE) locks only its own table. Then orders' own foreign keys, the counters and orders' VACUUM, which
 * sets the visibility map so the queue lists can page with index-only scans right away. PGlite has a single
 * connection and does the same in turn.
 */
async function restoreAfterLoad(
  pool: Kysely<DB>,
  conn: Kysely<DB>,
  embedded: boolean,
  indexes: IndexDefinition[],
  foreignKeys: ForeignKey[],
): Promise<void> {
  for (const { table, name, definition } of foreignKeys) {
    await sql`ALTER TABLE ${sql.id(table)} ADD CONSTRAINT ${sql.id(name)} ${sql.raw(definition)} NOT VALID`.execute(
      conn,
    );
  }
  const validate = async (keys: ForeignKey[]) => {
    for (const { table, name } of keys) {
      await sql`ALTER TABLE ${sql.id(table)} VALIDATE CONSTRAINT ${sql.id(name)}`.execute(conn);
    }
  };
  const gin = indexes.filter((i) => / USING gin /i.test(i.definition));
  const others = async () => {
    await buildIndexes(
      conn,
      indexes.filter((i) => !gin.includes(i)),
    );
    await validate(foreignKeys.filter((k) => k.table !== 'orders'));
    await sql`VACUUM (ANALYZE) remarks, mails, downloads, documents`.execute(conn);
  };
  if (embedded) {
    await buildIndexes(conn, gin);
    await others();
  } else {
    await Promise.all([buildIndexes(pool, gin), others()]);
  }
  await validate(foreignKeys.filter((k) => k.table === 'orders'));
  await conn.transaction().execute(async (trx) => {
    // In one transaction: no order changes between the rebuild and the trigger taking over again.
    await sql`ALTER TABLE orders ENABLE TRIGGER orders_count`.execute(trx);
    await sql`ALTER TABLE orders ENABLE TRIGGER orders_report_count`.execute(trx);
    await sql`SELECT rebuild_order_counters()`.execute(trx);
    await sql`SELECT rebuild_report_counters()`.execute(trx);
  });
  await sql`VACUUM (ANALYZE) orders, order_counters, order_report_counts, processed_report_counts`.execute(conn);
}

/** Builds indexes again as they were, in one transaction on one connection. */
function buildIndexes(db: Kysely<DB>, list: IndexDefinition[]): Promise<void> {
  return db.transaction().execute(async (trx) => {
    await sql`SET LOCAL maintenance_work_mem = '512MB'`.execute(trx);
    for (const { definition, settings } of list) {
      await sql.raw(definition).execute(trx);
      for (const setting of settings) await sql.raw(setting).execute(trx);
    }
  });
}
