// Reads of personal data on the record (issue 24): reads are recorded through the batched writer, shown on the order
// ("Viewed by", Admin and Manager) and on the Activity page (Admin) with filters, newest first over keys; unusual
// reading patterns raise alerts there, which an Admin acknowledges (audited).
import type { Kysely } from 'kysely';
import type { AccessAlert, AccessAlertsPage, AccessKind, AccessRecordPage, AccessRecordRow } from '@eta/contracts';
import type { DB, Staff } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { checkDateRange, rangeInstants } from '../../lib/date-filter.js';
import { decodeCursor, encodeCursor } from '../../lib/keyset-cursor.js';
import { normalizeOrderId } from '../../lib/order-id.js';
import { REPORT_STATEMENT_TIMEOUT_MS, withStatementTimeout } from '../../db/statement-budget.js';
import { writeAudit, type Actor } from '../audit/audit.repository.js';
import type { AccessRead, AccessRecordWriter, Reader } from './access-record-writer.js';
import {
  acknowledgeAlert,
  countAlerts,
  findOrderKey,
  lockAlert,
  selectAccessRecords,
  selectAlerts,
  type AccessDbRow,
  type AccessFilter,
  type AlertDbRow,
} from './access-records.repository.js';

export interface AccessRecordsQueryInput {
  staffId?: number | undefined;
  orderId?: string | undefined;
  kind?: AccessKind | undefined;
  fromDate?: string | undefined;
  toDate?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

const NO_FILTER: AccessFilter = { staffId: null, orderKey: null, kind: null, from: null, until: null };

const toRow = (r: AccessDbRow): AccessRecordRow => ({
  id: r.id,
  at: r.at.toISOString(),
  staff_id: r.staff_id,
  staff_name: r.staff_name,
  order_id: r.order_id,
  kind: r.kind,
  detail: r.detail,
  ip: r.ip,
  browser: r.browser,
  os: r.os,
  device_type: r.device_type,
});

const toAlert = (a: AlertDbRow): AccessAlert => ({
  id: Number(a.id),
  staff_id: a.staff_id,
  staff_name: a.staff_name,
  window_start: new Date(a.window_start).toISOString(),
  window_end: new Date(a.window_end).toISOString(),
  order_count: a.order_count,
  raised_at: new Date(a.raised_at).toISOString(),
  acknowledged_at: a.acknowledged_at ? new Date(a.acknowledged_at).toISOString() : null,
  acknowledged_by: a.acknowledged_by_name,
});

export class AccessRecordsService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly writer: AccessRecordWriter,
  ) {}

  /** One read of personal data, answered: queued, written with its batch within about a second. */
  record(reader: Reader, read: AccessRead): void {
    this.writer.record(reader, read);
  }

  /** Writes the reads queued so far (tests, and the app's close). */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  /** The order's "Viewed by": who opened what of it, when and from where, newest first. */
  async forOrder(rawOrderId: string, q: { cursor?: string | undefined; limit: number }): Promise<AccessRecordPage> {
    const orderId = normalizeOrderId(rawOrderId);
    const order = await findOrderKey(this.db, orderId);
    if (!order) throw new AppError('ORDER_NOT_FOUND', `Order ${rawOrderId.trim()} was not found.`);
    return this.pageOf({ ...NO_FILTER, orderKey: Number(order.id) }, q.cursor, q.limit);
  }

  /** Every read for the Activity page, filtered by member, order, kind and UTC dates. */
  async page(q: AccessRecordsQueryInput): Promise<AccessRecordPage> {
    const range = checkDateRange(q);
    let orderKey: number | null = null;
    const orderId = q.orderId?.trim();
    if (orderId) {
      const order = await findOrderKey(this.db, normalizeOrderId(orderId));
      if (!order) return { rows: [], next: null };
      orderKey = Number(order.id);
    }
    const filter: AccessFilter = {
      staffId: q.staffId ?? null,
      orderKey,
      kind: q.kind ?? null,
      ...rangeInstants(range),
    };
    // A report's budget, as the Activity page's trail: filters on a member and a kind read one index, test the other.
    return withStatementTimeout(REPORT_STATEMENT_TIMEOUT_MS, () => this.pageOf(filter, q.cursor, q.limit));
  }

  private async pageOf(filter: AccessFilter, cursor: string | undefined, limit: number): Promise<AccessRecordPage> {
    const after = cursor ? decodeCursor(cursor, 'the reads list') : null;
    const rows = await selectAccessRecords(this.db, filter, after, limit + 1);
    const shown = rows.slice(0, limit);
    const last = shown[shown.length - 1];
    return {
      rows: shown.map(toRow),
      next: rows.length > limit && last ? encodeCursor({ at: last.at_key, id: last.id }) : null,
    };
  }

  async alerts(q: { page: number; limit: number }): Promise<AccessAlertsPage> {
    const [rows, counts] = await Promise.all([
      selectAlerts(this.db, (q.page - 1) * q.limit, q.limit),
      countAlerts(this.db),
    ]);
    return { rows: rows.map(toAlert), total: counts.total, open: counts.open };
  }

  /** An Admin has looked into the alert: who and when are kept on it and in the audit trail. */
  async acknowledge(staff: Staff, actor: Actor, alertId: number): Promise<AccessAlert> {
    return this.db.transaction().execute(async (trx) => {
      const alert = await lockAlert(trx, alertId);
      if (!alert) throw new AppError('NOT_FOUND', `Alert ${alertId} was not found.`);
      if (alert.acknowledged_at) {
        throw new AppError(
          'CONFLICT',
          `This alert was already acknowledged by ${alert.acknowledged_by_name ?? 'someone'}.`,
        );
      }
      const done = await acknowledgeAlert(trx, alertId, { id: staff.id, name: staff.name });
      await writeAudit(trx, actor, [
        {
          action: 'access.alert-acknowledge',
          target: `staff:${alert.staff_id}`,
          after: { alert: alertId, member: alert.staff_name, orders: alert.order_count },
        },
      ]);
      return toAlert(done);
    });
  }
}
