// All SQL of intake: the landing sites' keys (public id + SHA-256 of the secret), the idempotency record of each
// request, and the new order with its mail and audit row in one statement.
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { IntakePaymentCheck, MailState, ProcessStatus } from '@eta/contracts';
import type { DB, NewOrder } from '../../db/schema.js';
import type { auditRow } from '../audit/audit.repository.js';
import type { mailRow, SiteMailBranding } from '../mail/mail.repository.js';

type Db = Kysely<DB> | Transaction<DB>;

export interface IntakeKeyRow {
  id: string;
  landing_site: string;
  secret_sha256: Uint8Array;
  /** When a rotated key stops working; null while it is current. */
  retires_at: Date | null;
}

/** Index: intake_keys primary key. */
export async function selectIntakeKey(db: Db, id: string): Promise<IntakeKeyRow | undefined> {
  const { rows } = await sql<IntakeKeyRow>`
    SELECT id, landing_site, secret_sha256, retires_at FROM intake_keys WHERE id = ${id}`.execute(db);
  return rows[0];
}

/** Records that a key was used, at most once a minute per key (no hot row under a stream of orders). */
export async function touchIntakeKey(db: Db, id: string): Promise<void> {
  await sql`UPDATE intake_keys SET last_used_at = now()
    WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`.execute(db);
}

export interface IntakeSiteRow extends SiteMailBranding {
  current_legal_version: number;
  /** Whether the version the customer was shown exists (true when none was named). */
  legal_version_exists: boolean;
  /** The gateway the application names, by name in any case; null when there is none by that name. */
  gateway_id: number | null;
  gateway_name: string | null;
  /** The order an earlier request with this Idempotency-Key made, and that request's body hash. */
  earlier_order_id: string | null;
  earlier_body_sha256: Uint8Array | null;
  earlier_payment: IntakePaymentCheck | null;
}

/**
 * What an intake request needs to know before it writes, in one statement: the site (its branding, its current
 * legal version, whether the version the customer saw exists), the gateway the application names, and the order
 * an earlier request with the same Idempotency-Key made. Indexes: primary keys of landing_sites, legal_texts,
 * intake_requests; gateways is three rows.
 */
export async function selectIntakeContext(
  db: Db,
  request: { site: string; idempotencyKey: string; legalVersion: number | null; gatewayName: string },
): Promise<IntakeSiteRow | undefined> {
  const { rows } = await sql<IntakeSiteRow>`
    SELECT ls.key AS site_key, ls.display_name, ls.logo_url, ls.menu_links, ls.footer_contact, ls.mail_sender,
           ls.support_phone, ls.portal_url,
           (SELECT max(version) FROM legal_texts WHERE landing_site = ls.key) AS current_legal_version,
           (${request.legalVersion}::integer IS NULL OR EXISTS (
              SELECT 1 FROM legal_texts WHERE landing_site = ls.key AND version = ${request.legalVersion}::integer
           )) AS legal_version_exists,
           g.id AS gateway_id, g.gateway_name,
           o.order_id AS earlier_order_id, r.body_sha256 AS earlier_body_sha256, r.payment AS earlier_payment
      FROM landing_sites ls
      LEFT JOIN intake_requests r ON r.landing_site = ls.key AND r.idempotency_key = ${request.idempotencyKey}
      LEFT JOIN orders o ON o.id = r.order_id
      LEFT JOIN gateways g ON lower(g.gateway_name) = lower(${request.gatewayName})
     WHERE ls.key = ${request.site}`.execute(db);
  return rows[0];
}

export interface IntakeInsert {
  request: { site: string; idempotencyKey: string; bodySha256: Buffer; payment: IntakePaymentCheck };
  /** The order's columns (its `id` comes from the sequence in the statement). */
  order: NewOrder;
  /** The confirmation mail's and the audit row's columns; their order_id is the new order's. */
  mail: ReturnType<typeof mailRow>;
  audit: ReturnType<typeof auditRow>;
  /** The gateway's answer about the payment, the first line of the order's timeline (issue 21); null: none. */
  remark: { remark_name: string; remark: string } | null;
}

export type IntakeInserted =
  /** The new order's key, and its version and status as inserted (what the live desk is told). */
  | { raced: false; orderKey: number; version: number; status: ProcessStatus; mailState: MailState }
  /** Another request with this Idempotency-Key committed first: nothing was stored. */
  | { raced: true };

/** The row of `table` a JSON object makes, typed by the table itself (its columns as json_populate_record reads them). */
const fromJson = (table: string, alias: string, row: object) =>
  sql`json_populate_record(NULL::${sql.table(table)}, ${JSON.stringify(row)}::json) ${sql.id(alias)}`;
/**
 * A row's column names as SQL, made once per set of keys (the intake's rows always have the same keys): building
 * a hundred identifiers through Kysely for every order cost more than the rest of the statement's JavaScript.
 * The keys are the code's own column names, never input, and are checked to be plain identifiers all the same.
 */
const columnLists = new Map<string, RawBuilder<unknown>>();
function columnList(row: object, alias?: string): RawBuilder<unknown> {
  const keys = Object.keys(row);
  const id = `${alias ?? ''}:${keys.join(',')}`;
  let list = columnLists.get(id);
  if (!list) {
    if (keys.some((k) => !/^[a-z_][a-z0-9_]*$/.test(k))) throw new Error(`not a column name in ${keys.join(', ')}`);
    list = sql.raw(keys.map((k) => (alias ? `${alias}.${k}` : k)).join(', '));
    columnLists.set(id, list);
  }
  return list;
}

/**
 * The intake's whole write as ONE statement, so it commits on its own without BEGIN and COMMIT round trips: the
 * Idempotency-Key row first (its order id drawn from the sequence; ON CONFLICT DO NOTHING waits for a racing
 * request with the same key and then stores nothing), then the order (the counters' triggers fire), its
 * confirmation mail and its audit row, each only if the row before it was made. Foreign keys are checked at the
 * statement's end, when the order exists. A taken order id (random) fails the statement with 23505 on
 * orders_order_id_key and nothing is stored; the caller draws another.
 */
export async function insertIntake(db: Db, insert: IntakeInsert): Promise<IntakeInserted> {
  const { order_id: _mailOrder, ...mail } = insert.mail;
  const { order_id: _auditOrder, ...audit } = insert.audit;
  const x = { ...insert, mail, audit };
  const remark = x.remark
    ? sql`,
    remark AS (
      INSERT INTO remarks (order_id, remark_name, remark)
      SELECT inserted_order.id, ${x.remark.remark_name}, ${x.remark.remark} FROM inserted_order)`
    : sql``;
  const { rows } = await sql<{
    order_key: number | null;
    version: number | null;
    process_status: ProcessStatus | null;
    mail_state: MailState | null;
  }>`
    WITH new_order AS (SELECT nextval(pg_get_serial_sequence('orders', 'id')) AS id),
    request AS (
      INSERT INTO intake_requests (landing_site, idempotency_key, body_sha256, payment, order_id)
      SELECT ${x.request.site}, ${x.request.idempotencyKey}, ${x.request.bodySha256},
             ${JSON.stringify(x.request.payment)}::jsonb, id FROM new_order
      ON CONFLICT DO NOTHING RETURNING order_id),
    inserted_order AS (
      INSERT INTO orders (id, ${columnList(x.order)})
      SELECT request.order_id, ${columnList(x.order, 'o')} FROM request, ${fromJson('orders', 'o', x.order)}
      RETURNING id, version, process_status),
    mail AS (
      INSERT INTO mails (order_id, ${columnList(x.mail)})
      SELECT inserted_order.id, ${columnList(x.mail, 'm')} FROM inserted_order, ${fromJson('mails', 'm', x.mail)}
      RETURNING state),
    audit AS (
      INSERT INTO audit_log (order_id, ${columnList(x.audit)})
      SELECT inserted_order.id, ${columnList(x.audit, 'a')} FROM inserted_order, ${fromJson('audit_log', 'a', x.audit)})${remark}
    SELECT o.id AS order_key, o.version, o.process_status, (SELECT state FROM mail) AS mail_state
      FROM (SELECT 1) AS one LEFT JOIN inserted_order o ON true`.execute(db);
  const row = rows[0];
  return row?.order_key === null || row?.order_key === undefined
    ? { raced: true }
    : {
        raced: false,
        orderKey: Number(row.order_key),
        version: row.version!,
        status: row.process_status!,
        mailState: row.mail_state!,
      };
}

/** Whether an error is a taken order id (unique violation on orders.order_id). */
export const isTakenOrderId = (err: unknown): boolean =>
  (err as { code?: string; constraint?: string }).code === '23505' &&
  (err as { constraint?: string }).constraint === 'orders_order_id_key';

/** Forgets idempotency keys older than `hours` (they are kept at least 24 hours). Index: intake_requests_created_idx. */
export async function purgeIntakeRequests(db: Db, hours: number): Promise<number> {
  const result = await sql`DELETE FROM intake_requests
    WHERE created_at < now() - make_interval(hours => ${hours})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

export interface IntakeKeyListRow {
  id: string;
  landing_site: string;
  created_at: Date;
  created_by: string | null;
  last_used_at: Date | null;
  retires_at: Date | null;
  orders: number;
}

/**
 * The keys that still work (current, or rotated and in their grace period), newest first, with how many orders
 * each brought in. Index: intake_keys_site_idx; the counts walk orders_intake_key_idx (index-only).
 */
export async function selectUsableIntakeKeys(db: Db): Promise<IntakeKeyListRow[]> {
  const { rows } = await sql<IntakeKeyListRow>`
    SELECT k.id, k.landing_site, k.created_at, s.name AS created_by, k.last_used_at, k.retires_at,
           (SELECT count(*) FROM orders o WHERE o.intake_key_id = k.id)::integer AS orders
      FROM intake_keys k LEFT JOIN staff s ON s.id = k.created_by
     WHERE k.retires_at IS NULL OR k.retires_at > now()
     ORDER BY k.landing_site, k.created_at DESC`.execute(db);
  return rows;
}

/**
 * A new key for a site; every key of the site still working retires after `graceMinutes` (0: at once), or
 * sooner if it was retiring already. Returns the retired keys with when each stops.
 */
export async function rotateIntakeKey(
  trx: Transaction<DB>,
  key: { id: string; site: string; secretSha256: Buffer; createdBy: number },
  graceMinutes: number,
): Promise<{ id: string; retires_at: Date }[]> {
  const { rows } = await sql<{ id: string; retires_at: Date }>`
    UPDATE intake_keys
       SET retires_at = least(coalesce(retires_at, 'infinity'), now() + make_interval(mins => ${graceMinutes}))
     WHERE landing_site = ${key.site} AND (retires_at IS NULL OR retires_at > now())
    RETURNING id, retires_at`.execute(trx);
  await trx
    .insertInto('intake_keys')
    .values({ id: key.id, landing_site: key.site, secret_sha256: key.secretSha256, created_by: key.createdBy })
    .execute();
  return rows;
}
