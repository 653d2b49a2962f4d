// The Activity page (Admin): who did what and when, security events included (failed sign-ins, lockouts,
// refused calls), newest first, filtered by person, order, action and UTC dates, paged over keys, and the
// same filtered rows as CSV, streamed page by page with no cap.
import type { Kysely } from 'kysely';
import type { ActivityPage, ActivityRow } from '@eta/contracts';
import type { DB } from '../../db/schema.js';
import { csvStream, type CsvCell } from '../../lib/csv.js';
import { checkDateRange, rangeInstants } from '../../lib/date-filter.js';
import { normalizeOrderId } from '../../lib/order-id.js';
import { decodeCursor, encodeCursor } from '../../lib/keyset-cursor.js';
import { REPORT_STATEMENT_TIMEOUT_MS, withStatementTimeout } from '../../db/statement-budget.js';
import type { Reader } from '../access-records/access-record-writer.js';
import type { AccessRecordsService } from '../access-records/access-records.service.js';
import {
  findOrderKey,
  listPeople,
  selectActivity,
  type ActivityDbRow,
  type ActivityFilter,
  type ActivityKey,
} from './activity.repository.js';

export interface ActivityQueryInput {
  actorId?: number | undefined;
  orderId?: string | undefined;
  action?: string | undefined;
  fromDate?: string | undefined;
  toDate?: string | undefined;
}

const CSV_PAGE = 1000;

const toRow = (r: ActivityDbRow): ActivityRow => ({
  id: r.id,
  at: r.at.toISOString(),
  actor_id: r.actor_id,
  actor_name: r.actor_name,
  action: r.action,
  order_id: r.order_id,
  target: r.target,
  before: r.before ?? null,
  after: r.after ?? null,
  ip: r.ip,
});

/**
 * A page of the trail, under a report's budget (db/statement-budget.ts): a filter on both a person and an action reads
 * one of their indexes and tests the other condition row by row, which over a long trail takes more than a list's.
 */
const trailPage = (...args: Parameters<typeof selectActivity>) =>
  withStatementTimeout(REPORT_STATEMENT_TIMEOUT_MS, () => selectActivity(...args));

const json = (value: unknown): string => (value === null || value === undefined ? '' : JSON.stringify(value));

/** The filter of an export as its access record says it: "person 7, order ETA-…, 2026-01-01 to 2026-01-31". */
function describeFilter(q: ActivityQueryInput): string {
  const parts = [
    q.actorId !== undefined ? `person ${q.actorId}` : '',
    q.orderId?.trim() ? `order ${normalizeOrderId(q.orderId)}` : '',
    q.action?.trim() ? `action ${q.action.trim()}` : '',
    q.fromDate || q.toDate ? `${q.fromDate ?? 'start'} to ${q.toDate ?? 'today'}` : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'no filter';
}

export class ActivityService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly accessRecords: AccessRecordsService,
  ) {}

  /** null when the filter names an order that does not exist: nothing can match. */
  private async filter(q: ActivityQueryInput): Promise<ActivityFilter | null> {
    const range = checkDateRange(q);
    let orderKey: number | null = null;
    const orderId = q.orderId?.trim();
    if (orderId) {
      const order = await findOrderKey(this.db, normalizeOrderId(orderId));
      if (!order) return null;
      orderKey = Number(order.id);
    }
    const action = q.action?.trim();
    return {
      actorId: q.actorId ?? null,
      orderKey,
      action: action ? action : null,
      ...rangeInstants(range),
    };
  }

  async page(q: ActivityQueryInput & { cursor?: string | undefined; limit: number }): Promise<ActivityPage> {
    const after = q.cursor ? decodeCursor(q.cursor, 'the activity list') : null;
    const filter = await this.filter(q);
    if (!filter) return { rows: [], next: null };
    const rows = await trailPage(this.db, filter, after, q.limit + 1);
    const shown = rows.slice(0, q.limit);
    const last = shown[shown.length - 1];
    return {
      rows: shown.map(toRow),
      next: rows.length > q.limit && last ? encodeCursor({ at: last.at_key, id: last.id }) : null,
    };
  }

  people() {
    return listPeople(this.db);
  }

  /**
   * The filtered trail as CSV. It names people, addresses (customers' too) and changes to orders, so the export is a
   * read of personal data: one access record when the file ends (or is cut off), with its filter and row count.
   */
  async csv(q: ActivityQueryInput, reader: Reader) {
    const filter = await this.filter(q);
    const db = this.db;
    const accessRecords = this.accessRecords;
    async function* rows(): AsyncGenerator<CsvCell[]> {
      let written = 0;
      let complete = false;
      try {
        yield* trail();
        complete = true;
      } finally {
        const rowsText = `${written} ${written === 1 ? 'row' : 'rows'}${complete ? '' : ', cut off'}`;
        accessRecords.record(reader, {
          orderId: null,
          kind: 'export',
          detail: `Activity CSV (${describeFilter(q)}): ${rowsText}`,
        });
      }
      async function* trail(): AsyncGenerator<CsvCell[]> {
        if (!filter) return;
        let after: ActivityKey | null = null;
        for (;;) {
          const page = await trailPage(db, filter, after, CSV_PAGE);
          for (const r of page) {
            written += 1;
            yield [
              r.at.toISOString(),
              r.actor_name ?? '',
              r.action,
              r.order_id ?? '',
              r.target ?? '',
              json(r.before),
              json(r.after),
              r.ip ?? '',
            ];
          }
          const last = page[page.length - 1];
          if (page.length < CSV_PAGE || !last) return;
          after = { at: last.at_key, id: last.id };
        }
      }
    }
    return {
      fileName: `activity-${q.fromDate ?? 'start'}-to-${q.toDate ?? 'today'}.csv`,
      stream: csvStream(
        ['Time (UTC)', 'Person', 'Action', 'Order ID', 'Target', 'Before', 'After', 'IP address'],
        rows(),
      ),
    };
  }
}
