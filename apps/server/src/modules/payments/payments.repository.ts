// All SQL of payments, webhooks and disputes (issue 21). Orders are found by the payment ids a gateway names
// (indexes orders_transaction_idx and orders_charge_idx, migration 016).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { AuditAction, ProcessStatus } from '@eta/contracts';
import type { DB } from '../../db/schema.js';
import type { DisputeFacts } from './payment-gateway.js';
import type { auditRow } from '../audit/audit.repository.js';

type Db = Kysely<DB> | Transaction<DB>;

export const selectGatewayRows = (db: Db) =>
  db
    .selectFrom('gateways')
    .select(['id', 'gateway_name', 'last_webhook_at', 'last_webhook_verified', 'last_error', 'last_error_at'])
    .orderBy('id')
    .execute();

export const selectGatewayId = async (db: Db, name: string) =>
  (await db.selectFrom('gateways').select('id').where('gateway_name', '=', name).executeTakeFirst())?.id;

/** What the gateway page shows: a webhook arrived (and whether its signature held), or a call failed. */
export async function recordGatewayStatus(
  db: Db,
  gatewayId: number,
  status: { webhookVerified?: boolean; error?: string | null },
): Promise<void> {
  await db
    .updateTable('gateways')
    .set({
      ...(status.webhookVerified !== undefined
        ? { last_webhook_at: sql<Date>`now()`, last_webhook_verified: status.webhookVerified }
        : {}),
      ...(status.error ? { last_error: status.error.slice(0, 500), last_error_at: sql<Date>`now()` } : {}),
    })
    .where('id', '=', gatewayId)
    .execute();
}

/**
 * What an event's stored payload says when its order's personal data is erased (issue 24): a gateway's webhook as it
 * came may name the card holder and their e-mail (a Stripe charge's billing details). Erasure puts it in place of the
 * payloads stored before; an event for an already erased order (a refund or a chargeback months later) is stored
 * with it from the start. The event's id, type, outcome and note stay, as the evidence trail.
 */
export const ERASED_EVENT_PAYLOAD = JSON.stringify({
  erased: 'the payload named the customer; erased with their order',
});

/**
 * Stores a verified event once by its id with what it did; undefined when it was stored before (a replay, or a copy
 * that raced this one and committed first: the unique key makes this insert wait for it). The event's order is
 * locked by the caller (lockOrderByPayment), so an erasure of it cannot commit between this check and the commit.
 */
export async function insertEvent(
  trx: Transaction<DB>,
  e: {
    gatewayId: number;
    eventId: string;
    type: string;
    payload: unknown;
    outcome: 'applied' | 'ignored' | 'unmatched';
    orderId: number | null;
    note: string;
  },
): Promise<number | undefined> {
  const row = await trx
    .insertInto('gateway_events')
    .values({
      gateway_id: e.gatewayId,
      event_id: e.eventId,
      type: e.type,
      payload:
        e.orderId === null
          ? JSON.stringify(e.payload)
          : sql<string>`CASE WHEN EXISTS (SELECT 1 FROM orders WHERE id = ${e.orderId} AND erased_at IS NOT NULL)
              THEN ${ERASED_EVENT_PAYLOAD}::jsonb ELSE ${JSON.stringify(e.payload)}::jsonb END`,
      outcome: e.outcome,
      order_id: e.orderId,
      note: e.note.slice(0, 1000),
    })
    .onConflict((oc) => oc.columns(['gateway_id', 'event_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export interface PaymentOrder {
  id: number;
  order_id: string;
  process_status: ProcessStatus;
  version: number;
  dispute_due_at: Date | null;
}

/** The order a gateway's payment ids name, locked for the event's changes. */
export async function lockOrderByPayment(
  trx: Transaction<DB>,
  gatewayId: number,
  paymentIds: string[],
): Promise<PaymentOrder | undefined> {
  if (paymentIds.length === 0) return undefined;
  return trx
    .selectFrom('orders')
    .select(['id', 'order_id', 'process_status', 'version', 'dispute_due_at'])
    .where('gateway_id', '=', gatewayId)
    .where((eb) => eb.or([eb('transaction_id', 'in', paymentIds), eb('charge_id', 'in', paymentIds)]))
    .orderBy('id')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
}

/** A change an event makes to its order; the version moves so open pages see it. */
export async function updatePaymentOrder(
  trx: Transaction<DB>,
  id: number,
  change: {
    process_status?: ProcessStatus;
    dispute_due_at?: Date | null;
    refund_date?: Date;
    refund_id?: string | null;
  },
): Promise<void> {
  await trx
    .updateTable('orders')
    .set({ ...change, updated_at: new Date(), version: sql<number>`version + 1` })
    .where('id', '=', id)
    .execute();
}

/** A line in the order's timeline written by the system (no staff member), named after its source. */
export async function insertSystemRemark(
  db: Db,
  r: { orderId: number; by: string; remark: string; chargeback?: boolean; refund?: boolean },
): Promise<void> {
  await db
    .insertInto('remarks')
    .values({
      order_id: r.orderId,
      staff_id: null,
      remark_name: r.by,
      remark: r.remark,
      chargeback: r.chargeback ?? false,
      status_refund: r.refund ?? false,
    })
    .execute();
}

export interface DisputeRow {
  id: number;
  status: string;
  outcome: 'won' | 'lost' | null;
  evidence_state: 'draft' | 'submitted' | null;
}

/** A dispute event as the webhook service decided it; what depends on the rows is decided by the statement. */
export interface DisputeEvent {
  gatewayId: number;
  eventId: string;
  type: string;
  payload: unknown;
  paymentIds: string[];
  facts: DisputeFacts;
  stage: 'created' | 'updated' | 'closed';
  /** The remark when this event made the dispute (a "created", or an update that came first). */
  openedNote: string;
  /** The remark when the dispute was known already. */
  changedNote: string;
  unmatchedNote: string;
  /** The order goes to ChargeBack even when the dispute was known (the event says it was opened). */
  toChargeBack: boolean;
  dueAt: Date | null;
  actor: { id: number | null; name: string; ip: string | null };
}

export interface AppliedEvent {
  outcome: 'applied' | 'unmatched';
  orderId: number | null;
  note: string;
}

/**
 * A dispute event with all its effects in ONE statement (the webhook hot path, issue 21's 20 ms target): the order
 * named by a payment id is locked (orders_transaction_idx / orders_charge_idx), the dispute created or brought up
 * to date (`xmax = 0`: this statement made it), the order moved to ChargeBack with its due date (the folder
 * counters move by trigger), the system remark, the audit row and the dispute's history written, and the event
 * stored by its id last. A replay, or a copy that raced this one and committed first, fails the event's unique
 * key and so undoes the whole statement (isStoredEvent). No order: only the event is kept, as 'unmatched'.
 */
export async function applyDisputeEvent(db: Db, e: DisputeEvent): Promise<AppliedEvent> {
  const f = e.facts;
  const outcome = f.outcome ? sql`${f.outcome}, now()` : sql`NULL, NULL`;
  const action: AuditAction = `order.dispute-${e.stage}`;
  const { rows } = await sql<AppliedEvent>`
    WITH o AS (
      SELECT id, order_id, process_status, version, dispute_due_at, erased_at FROM orders
      WHERE gateway_id = ${e.gatewayId}
        AND (transaction_id = ANY(${e.paymentIds}::text[]) OR charge_id = ANY(${e.paymentIds}::text[]))
      ORDER BY id LIMIT 1 FOR UPDATE),
    d AS (
      INSERT INTO disputes AS x (order_id, gateway_id, dispute_id, reason, amount_cents, currency, status,
                                 evidence_due_by, outcome, outcome_at)
      SELECT o.id, ${e.gatewayId}, ${f.disputeId}, ${f.reason}, ${f.amountCents}, ${f.currency}, ${f.status},
             ${f.evidenceDueBy}::timestamptz, ${outcome}
      FROM o
      ON CONFLICT (gateway_id, dispute_id) DO UPDATE SET
        reason = EXCLUDED.reason, amount_cents = EXCLUDED.amount_cents, currency = EXCLUDED.currency,
        status = EXCLUDED.status, evidence_due_by = EXCLUDED.evidence_due_by,
        -- A decided outcome keeps the time it was first known.
        outcome = coalesce(EXCLUDED.outcome, x.outcome), outcome_at = coalesce(x.outcome_at, EXCLUDED.outcome_at),
        updated_at = now()
      RETURNING id, xmax = 0 AS created),
    s AS (
      SELECT o.*, d.id AS dispute_key, d.created,
             CASE WHEN d.created THEN ${e.openedNote} ELSE ${e.changedNote} END AS note,
             CASE WHEN (d.created OR ${e.toChargeBack}) AND o.process_status <> 'ChargeBack'
                  THEN 'ChargeBack' END AS moved_to
      FROM o, d),
    u AS (
      UPDATE orders SET process_status = coalesce(s.moved_to, orders.process_status),
                        dispute_due_at = ${e.dueAt}::timestamptz, updated_at = now(), version = orders.version + 1
      FROM s WHERE orders.id = s.id),
    r AS (
      INSERT INTO remarks (order_id, staff_id, remark_name, remark, chargeback, status_refund)
      SELECT s.id, NULL, ${e.actor.name}, s.note, true, false FROM s),
    a AS (
      INSERT INTO audit_log (actor_id, actor_name, ip, action, order_id, target, before, after)
      SELECT ${e.actor.id}, ${e.actor.name}, ${e.actor.ip}, ${action}, s.id, s.order_id,
             jsonb_build_object('process_status', s.process_status, 'dispute_due_at', s.dispute_due_at,
                                'version', s.version),
             jsonb_strip_nulls(jsonb_build_object('process_status', s.moved_to)) || jsonb_build_object(
               'dispute_due_at', ${e.dueAt}::timestamptz,
               'dispute', jsonb_build_object('id', ${f.disputeId}::text, 'status', ${f.status}::text,
                                             'outcome', ${f.outcome}::text, 'new', s.created),
               'event', ${e.eventId}::text, 'version', s.version + 1)
      FROM s),
    h AS (
      INSERT INTO dispute_history (dispute_id, status, outcome, by_name, note)
      SELECT s.dispute_key, ${f.status}, ${f.outcome}, ${e.actor.name}, s.note FROM s)
    INSERT INTO gateway_events (gateway_id, event_id, type, payload, outcome, order_id, note)
    SELECT ${e.gatewayId}, ${e.eventId}, ${e.type},
           -- An order erased before its chargeback: the payload is not stored (it names the card holder).
           CASE WHEN s.erased_at IS NOT NULL THEN ${ERASED_EVENT_PAYLOAD}::jsonb
                ELSE ${JSON.stringify(e.payload)}::jsonb END,
           CASE WHEN s.id IS NULL THEN 'unmatched' ELSE 'applied' END, s.id,
           left(coalesce(s.note, ${e.unmatchedNote}), 1000)
    FROM (SELECT 1) AS one LEFT JOIN s ON true
    RETURNING outcome, order_id AS "orderId", note`.execute(db);
  const row = rows[0]!;
  return { ...row, orderId: row.orderId === null ? null : Number(row.orderId) };
}

/** Whether an error is an event stored before (unique violation on gateway_events' id per gateway). */
export const isStoredEvent = (err: unknown): boolean =>
  (err as { code?: string }).code === '23505' &&
  (err as { constraint?: string }).constraint === 'gateway_events_gateway_id_event_id_key';

/** What a refund event leaves behind besides the order's own change, in one statement: the remark and the audit row. */
export async function insertEventTrail(
  trx: Transaction<DB>,
  t: {
    remark: { orderId: number; by: string; remark: string; refund?: boolean };
    audit: ReturnType<typeof auditRow>;
  },
): Promise<void> {
  const { remark: r, audit: a } = t;
  const json = (v: unknown) => (v === null ? null : JSON.stringify(v));
  await sql`
    WITH remark AS (
      INSERT INTO remarks (order_id, staff_id, remark_name, remark, chargeback, status_refund)
      VALUES (${r.orderId}, NULL, ${r.by}, ${r.remark}, false, ${r.refund ?? false}))
    INSERT INTO audit_log (actor_id, actor_name, ip, action, order_id, target, before, after)
    VALUES (${a.actor_id}, ${a.actor_name}, ${a.ip}, ${a.action}, ${a.order_id}, ${a.target},
            ${json(a.before)}::jsonb, ${json(a.after)}::jsonb)`.execute(trx);
}

export async function insertDisputeHistory(
  db: Db,
  h: { disputeId: number; status: string; outcome: string | null; by: string; note: string },
): Promise<void> {
  await db
    .insertInto('dispute_history')
    .values({ dispute_id: h.disputeId, status: h.status, outcome: h.outcome, by_name: h.by, note: h.note })
    .execute();
}

/** The newest unmatched events, a page at a time (index gateway_events_unmatched_idx). */
export async function selectUnmatchedEvents(db: Db, offset: number, limit: number) {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('gateway_events')
      .innerJoin('gateways', 'gateways.id', 'gateway_events.gateway_id')
      .select([
        'gateway_events.id',
        'gateways.gateway_name',
        'gateway_events.event_id',
        'gateway_events.type',
        'gateway_events.received_at',
        'gateway_events.note',
      ])
      .where('gateway_events.outcome', '=', 'unmatched')
      .orderBy('gateway_events.received_at', 'desc')
      .orderBy('gateway_events.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    db
      .selectFrom('gateway_events')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('outcome', '=', 'unmatched')
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((r) => ({ ...r, id: Number(r.id) })), total: Number(total.n) };
}

export interface RefundTarget {
  order_id: string;
  process_status: ProcessStatus;
  payment_status: string;
  version: number;
  transaction_id: string | null;
  charge_id: string | null;
  payment_verified_at: Date | null;
  gateway_name: string | null;
}

/** What "Refunded it" needs to know of each order before it asks a gateway (read without a lock). */
export const selectRefundTargets = (db: Db, orderIds: string[]): Promise<RefundTarget[]> =>
  orderIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('orders')
        .leftJoin('gateways', 'gateways.id', 'orders.gateway_id')
        .select([
          'orders.order_id',
          'orders.process_status',
          'orders.payment_status',
          'orders.version',
          'orders.transaction_id',
          'orders.charge_id',
          'orders.payment_verified_at',
          'gateways.gateway_name',
        ])
        .where('orders.order_id', 'in', orderIds)
        // Oldest first: the gateway calls go out in one stable order, not in whatever order the rows lie on disk.
        .orderBy('orders.id')
        .execute();

/** The refund id each order's gateway gave (the orders are locked by the move). */
export async function setRefundIds(trx: Transaction<DB>, refunds: { id: number; refundId: string }[]): Promise<void> {
  for (const r of refunds) {
    await trx.updateTable('orders').set({ refund_id: r.refundId }).where('id', '=', r.id).execute();
  }
}

/** The payment re-check due first, locked (SKIP LOCKED: two processes never check one order). Index: orders_payment_check_idx. */
export const lockDueRecheck = (trx: Transaction<DB>) =>
  trx
    .selectFrom('orders')
    .innerJoin('gateways', 'gateways.id', 'orders.gateway_id')
    .select([
      'orders.id',
      'orders.order_id',
      'orders.transaction_id',
      'orders.amount_cents',
      'orders.currency',
      'orders.payment_status',
      'orders.payment_check_attempts',
      'gateways.gateway_name',
    ])
    .where('orders.payment_check_due_at', '<=', sql<Date>`now()`)
    .orderBy('orders.payment_check_due_at')
    .limit(1)
    .forUpdate('orders')
    .skipLocked()
    .executeTakeFirst();

/** What a re-check found; the version moves so open pages see it. */
export async function updateCheckedPayment(
  trx: Transaction<DB>,
  id: number,
  change: {
    payment_status: 'Success' | 'Pending' | 'Failed';
    payment_verified_at: Date | null;
    charge_id?: string | null;
    payment_check_attempts: number;
    payment_check_due_at: Date | null;
  },
): Promise<void> {
  await trx
    .updateTable('orders')
    .set({ ...change, updated_at: new Date(), version: sql<number>`version + 1` })
    .where('id', '=', id)
    .execute();
}
