// The work on one order (spec §2 "Order detail"): read the whole application with its history, comment on
// it, move it through its stages and record transaction details. Moves reuse the queue rules
// (order-moves.service.ts); every write is audited in its own transaction.
import type { Kysely } from 'kysely';
import {
  auditActionLabel,
  auditLine,
  EVIDENCE_STATUSES,
  ORDER_DETAIL_FIELDS,
  STATUS_LABELS,
  type ActivityEntry,
  type AddRemarkBody,
  type MoveOrderStatusBody,
  type OrderDetails,
  type RemarkEntry,
  type SaveTransactionBody,
} from '@eta/contracts';
import type { DB, Staff } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { isoTime, usEastern, utcText } from '../../lib/time.js';
import { normalizeOrderId } from '../../lib/order-id.js';
import { writeAudit, type Actor } from '../audit/audit.repository.js';
import type { OrderMovesService } from '../orders/order-moves.service.js';
import { toTiming } from '../orders/orders.repository.js';
import { changedBy, type OrderEventsPublisher } from '../events/order-events.publisher.js';
import type { OrderFieldsCipher } from '../personal-data/order-fields.js';
import {
  findOrderKey,
  insertRemark,
  lockOrder,
  selectLastChange,
  selectOrderDetail,
  updateTransactionDetails,
  type AuditRow,
  type OrderJson,
  type RemarkRow,
} from './order-detail.repository.js';

/** A copy without the null, undefined and '' values: the page shows a row only when its value exists. */
function dropEmpty<T extends object>(o: T): T {
  const out: Record<string, unknown> = {};
  for (const key in o) {
    const value: unknown = o[key];
    if (value !== null && value !== undefined && value !== '') out[key] = value;
  }
  return out as T;
}

const statusOf = (state: Record<string, unknown> | null) => {
  const status = state?.process_status;
  return typeof status === 'string' ? (STATUS_LABELS[status as keyof typeof STATUS_LABELS] ?? status) : undefined;
};

/**
 * One audit row as a line of the order's timeline (the detail page and the defence packs), in the words of
 * AUDIT_ACTIONS: a staff member's name and what they did, or for the customer, a gateway or a landing site a line
 * naming them ("Order received from Canada eTA Online"). `site` is the order's landing site by its display name.
 */
export function toActivity(row: AuditRow, site: string): ActivityEntry {
  const actor = row.actor_name ?? 'System';
  const line = auditLine(row.action, { actor, site, after: row.after });
  return dropEmpty({
    at: isoTime(row.at),
    actor: line === undefined ? actor : undefined,
    action: line ?? auditActionLabel(row.action),
    from: statusOf(row.before),
    to: statusOf(row.after),
  });
}

const toRemark = (orderId: string, r: Omit<RemarkRow, 'created_at'> & { created_at: Date | string }): RemarkEntry => ({
  id: Number(r.id),
  order_id: orderId,
  create_ts: isoTime(r.created_at),
  ...usEastern(new Date(r.created_at)),
  remark_name: r.remark_name,
  remark: r.remark,
  whatsapp: r.whatsapp,
  telephone: r.telephone,
  status_refund: r.status_refund,
  voided: r.voided,
  chargeback: r.chargeback,
  report_error: r.report_error,
});

/** The order's own fields as the page shows them: ISO timestamps, and only the fields that have a value. */
function orderFields(row: OrderJson): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [name, kind] of Object.entries(ORDER_DETAIL_FIELDS)) {
    const value = name === 'create_ts' ? row.created_at : row[name as keyof OrderJson];
    if (value === null || value === undefined || value === '') continue;
    fields[name] = kind === 'timestamp' ? isoTime(value as string) : value;
  }
  return fields;
}

export class OrderDetailService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly moves: OrderMovesService,
    private readonly orderEvents: OrderEventsPublisher,
    private readonly personalFields: OrderFieldsCipher,
    /** URGENT_TRAVEL_HOURS (issue 35). */
    private readonly urgentHours: number,
  ) {}

  async details(rawOrderId: string): Promise<OrderDetails> {
    const orderId = normalizeOrderId(rawOrderId);
    const row = await selectOrderDetail(this.db, orderId, this.urgentHours);
    if (!row) throw new AppError('ORDER_NOT_FOUND', `Order ${rawOrderId.trim()} was not found.`);
    // The sealed fields (issue 24) as their clear columns would read; an order not yet encrypted reads as it is.
    const sealed = await this.personalFields.open(row.order.order_id, row.order.personal_sealed);
    const order = { ...row.order, ...sealed } as OrderJson;
    return {
      ...orderFields(order),
      version: order.version,
      timing: toTiming(row.timing),
      ...(row.holder_name ? { assign_to: row.holder_name, assign_to_id: order.assign_to! } : {}),
      uploadDoc: row.documents.map((d) =>
        dropEmpty({
          id: Number(d.id),
          file1: d.original_name,
          content_type: d.content_type,
          size_bytes: d.size_bytes,
          create_ts: isoTime(d.created_at),
          uploaded_by: d.uploaded_by,
          customer_name: [order.passport_first_name, order.passport_surname].filter(Boolean).join(' '),
          mail_service_provider: d.mail_service_provider,
          application_number: d.application_number,
          expires_on: d.expires_on,
          matched: d.matched === null ? undefined : d.matched === 'true',
          sent_anyway: d.sent_anyway,
        }),
      ),
      mailHistory: row.mails.map((m) =>
        dropEmpty({
          id: Number(m.id),
          order_id: orderId,
          kind: m.kind,
          to: m.to_address,
          subject: m.subject,
          provider: m.provider,
          state: m.state,
          attempts: m.attempts,
          last_error: m.last_error,
          create_ts: isoTime(m.created_at),
          sent_at: m.sent_at ? isoTime(m.sent_at) : null,
          from: m.from_address,
          provider_message_id: m.provider_message_id,
          next_attempt_at: m.state === 'queued' ? isoTime(m.next_attempt_at) : null,
        }),
      ),
      downloadHistory: row.downloads.map((d) =>
        dropEmpty({
          ...d,
          id: Number(d.id),
          order_id: orderId,
          create_ts: isoTime(d.created_at),
          created_at: undefined,
        }),
      ),
      remark: row.remarks.map((r) => toRemark(orderId, r)),
      activity: row.timeline.map((entry) => toActivity(entry, row.site_name)),
      ...(order.erased_at ? { erasedAt: isoTime(order.erased_at) } : {}),
      ...(order.legal_hold_at
        ? {
            legalHold: {
              heldAt: isoTime(order.legal_hold_at),
              heldBy: order.legal_hold_by_name ?? '',
              reason: order.legal_hold_reason ?? '',
            },
          }
        : {}),
    } as OrderDetails;
  }

  /** The author is the signed-in person, whatever remarkerName says; the text is kept exactly as typed. */
  async addRemark(staff: Staff, actor: Actor, body: AddRemarkBody): Promise<RemarkEntry> {
    const orderId = normalizeOrderId(body.orderId);
    const flags = {
      whatsapp: body.whatsapp === 'Y',
      telephone: body.telephone === 'Y',
      status_refund: body.statusRefund === 'Y',
      voided: body.voided === 'Y',
      chargeback: body.chargeBack === 'Y',
      report_error: body.reportError === 'Y',
    };
    const remark = await this.db.transaction().execute(async (trx) => {
      const order = await findOrderKey(trx, orderId);
      if (!order) throw new AppError('ORDER_NOT_FOUND', `Order ${body.orderId.trim()} was not found.`);
      const row = await insertRemark(trx, {
        orderId: order.id,
        staffId: staff.id,
        staffName: staff.name,
        remark: body.remark,
        flags,
      });
      await writeAudit(trx, actor, [
        { action: 'order.remark', orderId: order.id, target: orderId, after: { remarkId: Number(row.id), ...flags } },
      ]);
      return toRemark(orderId, row);
    });
    // A comment leaves the version as it is (it makes nobody's copy stale), so the event names it.
    this.orderEvents.addedTo(orderId, { kind: 'comment', id: remark.id }, changedBy(actor));
    return remark;
  }

  /** One Move-to button: the queue rules, plus the version the person saw; a stale copy is named back. */
  async moveStatus(
    staff: Staff,
    actor: Actor,
    body: MoveOrderStatusBody,
  ): Promise<{ orderId: string; version: number }> {
    const orderId = normalizeOrderId(body.orderId);
    try {
      await this.moves.changeStatus(staff, actor, [orderId], body.updatingStatus, false, { [orderId]: body.version });
    } catch (err) {
      if (err instanceof AppError && err.code === 'STALE_VERSION') throw await this.staleError(orderId);
      throw err;
    }
    return { orderId, version: body.version + 1 };
  }

  async saveTransactionDetails(actor: Actor, body: SaveTransactionBody): Promise<{ orderId: string; version: number }> {
    const orderId = normalizeOrderId(body.orderId);
    const change = { transaction_id: body.transactionId.trim(), merchant_name: body.merchantName.trim() };
    const result = await this.db.transaction().execute(async (trx) => {
      const order = await lockOrder(trx, orderId);
      if (!order) throw new AppError('ORDER_NOT_FOUND', `Order ${body.orderId.trim()} was not found.`);
      if (body.version !== order.version) return null;
      if (!EVIDENCE_STATUSES.includes(order.process_status)) {
        throw new AppError(
          'WRONG_STATUS',
          `Transaction details can be saved only for Completed, Customer Called or Charge Back orders; this order is ${STATUS_LABELS[order.process_status]}.`,
        );
      }
      const version = await updateTransactionDetails(trx, order.id, change);
      await writeAudit(trx, actor, [
        {
          action: 'order.transaction-details',
          orderId: order.id,
          target: orderId,
          before: { transaction_id: order.transaction_id, merchant_name: order.merchant_name, version: order.version },
          after: { ...change, version },
        },
      ]);
      return { orderId, version };
    });
    if (!result) throw await this.staleError(orderId);
    this.orderEvents.changedById([orderId], changedBy(actor));
    return result;
  }

  private async staleError(orderId: string): Promise<AppError> {
    const last = await selectLastChange(this.db, orderId);
    const who = last?.actor_name ?? 'someone else';
    const when = last ? ` at ${utcText(new Date(last.at))}` : '';
    return new AppError(
      'STALE_VERSION',
      `Order ${orderId} was changed by ${who}${when} after you opened it. Nothing was overwritten: check the latest details and try again.`,
      { data: { changedBy: who, ...(last ? { changedAt: isoTime(last.at) } : {}) } },
    );
  }
}
