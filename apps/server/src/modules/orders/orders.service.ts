// Queue reads and bulk moves for staff. Reads use the queue filters of queues.ts; every move locks its
// orders, checks role, current status, payment and version per order, changes the eligible ones and
// writes their audit rows, all in one transaction. Orders that cannot move are reported, never overwritten.
import type { Kysely } from 'kysely';
import {
  MONTH_LABELS,
  QUEUES,
  type BulkResult,
  type FolderCounts,
  type OrderListPage,
  type ProcessStatus,
  type QueueName,
  type StaffType,
} from '@eta/contracts';
import type { DB, Staff } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { writeAudit, type Actor } from '../audit/audit.repository.js';
import { ACTION_RULES } from '../auth/permissions.js';
import { selectFolderCounts } from './folder-counts.repository.js';
import {
  countQueueRows,
  lockOrders,
  normalizeOrderId,
  selectFutureMonthCounts,
  selectQueuePage,
  updateOrders,
  type LockedOrder,
  type OrderChange,
} from './orders.repository.js';
import { CLOSED_STATUSES } from './queues.js';

/** A search stops counting here: the count of a very common fragment would cost more than it tells. */
export const SEARCH_COUNT_CAP = 1_000;

/** Statuses the detail page's Move-to buttons and bulk delete may set through change-order-status. */
const MOVABLE_TO: ProcessStatus[] = [
  'Awaiting',
  'AwaitingGovt',
  'Customer Called',
  'Contact Customer',
  'Completed',
  'Refunds',
  'ChargeBack',
  'Deleted',
];

type Verdict = string | null; // null = eligible, otherwise the reason it is skipped

interface MoveSpec {
  action: string;
  check: (order: LockedOrder) => Verdict;
  change: OrderChange;
}

const hasRole = (staff: Staff, roles: readonly StaffType[]) => roles.includes(staff.type);

export class OrdersService {
  constructor(private readonly db: Kysely<DB>) {}

  /** Counts for the signed-in staff member; the spec's `userName` is not trusted for "My Orders". */
  folderCounts(staffId: number): Promise<FolderCounts> {
    return selectFolderCounts(this.db, staffId);
  }

  async listQueue(staff: Staff, queue: QueueName, page: number, limit: number, month?: number): Promise<OrderListPage> {
    const q = { queue, staffId: staff.id, month };
    const [rows, total] = await Promise.all([
      selectQueuePage(this.db, { ...q, offset: (page - 1) * limit, limit }),
      // Without a month filter the total is the folder count itself (order_counters), never a row count.
      month === undefined
        ? selectFolderCounts(this.db, staff.id).then((c) => c[QUEUES[queue].countKey])
        : countQueueRows(this.db, q, Number.MAX_SAFE_INTEGER),
    ]);
    return { rows, total, page, limit };
  }

  /** Spec's search: `start`/`end` are row offsets (end exclusive) inside the queue `folderName`. */
  async searchQueue(
    staff: Staff,
    queue: QueueName,
    searchVal: string,
    start: number,
    end: number,
  ): Promise<OrderListPage> {
    if (end <= start) throw new AppError('BAD_REQUEST', 'end must be greater than start.');
    const limit = Math.min(end - start, 5000);
    const q = { queue, staffId: staff.id, search: searchVal };
    // The capped count goes first (it always runs on the trigram index and costs a bounded amount); what it
    // finds decides how the page is fetched, so a misjudged row estimate can never pick a slow plan.
    const counted = await countQueueRows(this.db, q, SEARCH_COUNT_CAP + 1);
    const searchPlan = counted > SEARCH_COUNT_CAP ? 'queue-order' : 'matches-first';
    const rows = counted === 0 ? [] : await selectQueuePage(this.db, { ...q, offset: start, limit, searchPlan });
    const totalCapped = counted > SEARCH_COUNT_CAP;
    return {
      rows,
      total: Math.min(counted, SEARCH_COUNT_CAP),
      totalCapped,
      page: Math.floor(start / limit) + 1,
      limit,
    };
  }

  async futureMonthCounts(): Promise<{ month: number; label: string; count: number }[]> {
    const counts = await selectFutureMonthCounts(this.db);
    return MONTH_LABELS.map((label, i) => ({ month: i + 1, label, count: counts.get(i + 1) ?? 0 }));
  }

  /** "Assign to me" (assignto = a name) and "Move to New orders" (assignto = ''). */
  async assignOrders(
    staff: Staff,
    actor: Actor,
    orderIds: string[],
    assignto: string,
    versions?: Record<string, number>,
  ): Promise<BulkResult> {
    if (assignto.trim() === '') {
      const mayMoveOthers = hasRole(staff, ACTION_RULES.assignToOthers);
      return this.move(actor, orderIds, versions, {
        action: 'order.move-to-new',
        check: (o) => {
          if (o.assign_to === null) return 'is not assigned to anyone';
          if (o.assign_to !== staff.id && !mayMoveOthers) return `is held by ${o.assign_name ?? 'someone else'}`;
          if (CLOSED_STATUSES.includes(o.process_status)) return `is ${o.process_status}`;
          return null;
        },
        change: { process_status: 'New', assign_to: null, assign_date: null },
      });
    }
    const assignee = await this.resolveAssignee(staff, assignto);
    const mayTakeOver = hasRole(staff, ACTION_RULES.assignToOthers);
    return this.move(actor, orderIds, versions, {
      action: 'order.assign',
      check: (o) => {
        if (o.process_status !== 'New' && o.process_status !== 'Pending')
          return `is ${o.process_status}, not New or Pending`;
        if (o.assign_to === assignee.id) return `is already assigned to ${assignee.name}`;
        if (o.assign_to !== null && !mayTakeOver) return `is held by ${o.assign_name ?? 'someone else'}`;
        return null;
      },
      change: { process_status: 'Pending', assign_to: assignee.id, assign_date: new Date() },
    });
  }

  async changeStatus(
    staff: Staff,
    actor: Actor,
    orderIds: string[],
    to: ProcessStatus,
    permanent: boolean,
    versions?: Record<string, number>,
  ): Promise<BulkResult> {
    if (permanent) {
      throw new AppError(
        'BAD_REQUEST',
        'Orders are never deleted permanently: they are kept as evidence. Use Delete (soft) instead.',
      );
    }
    const restoring = to === 'New';
    if (!MOVABLE_TO.includes(to) && !restoring) {
      throw new AppError('BAD_REQUEST', `An order cannot be moved to ${to} here.`);
    }
    if (to === 'Deleted' && !hasRole(staff, ACTION_RULES.deleteOrders)) {
      throw new AppError('FORBIDDEN', 'Only a Manager or an Admin may delete orders.');
    }
    if (restoring && !hasRole(staff, ACTION_RULES.restoreDeleted)) {
      throw new AppError('FORBIDDEN', 'Only an Admin may restore a deleted order.');
    }
    return this.move(actor, orderIds, versions, {
      action: restoring ? 'order.restore' : to === 'Deleted' ? 'order.delete' : 'order.change-status',
      check: (o) => {
        if (o.process_status === to) return `is already ${to}`;
        if (restoring) return o.process_status === 'Deleted' ? null : 'is not deleted';
        if (o.process_status === 'Refund Completed') return 'is already refunded';
        if (o.process_status === 'Deleted') return 'is deleted; an Admin must restore it first';
        return null;
      },
      change: restoring
        ? { process_status: 'New', assign_to: null, assign_date: null }
        : { process_status: to, ...(to === 'Refunds' ? { refund_date: new Date() } : {}) },
    });
  }

  /** "Refunded it" in the refund queue: Refunds → Refund Completed. */
  moveToCompleteRefund(actor: Actor, orderIds: string[], versions?: Record<string, number>): Promise<BulkResult> {
    return this.move(actor, orderIds, versions, {
      action: 'order.refund-completed',
      check: (o) => (o.process_status === 'Refunds' ? null : `is ${o.process_status}, not in Refunds`),
      change: { process_status: 'Refund Completed', refund_date: new Date() },
    });
  }

  private async resolveAssignee(staff: Staff, assignto: string): Promise<{ id: number; name: string }> {
    const wanted = assignto.trim().toLowerCase();
    if (wanted === staff.name.trim().toLowerCase()) return { id: staff.id, name: staff.name };
    if (!hasRole(staff, ACTION_RULES.assignToOthers)) {
      throw new AppError('FORBIDDEN', 'You can only assign orders to yourself.');
    }
    const matches = await this.db
      .selectFrom('staff')
      .select(['id', 'name'])
      .where('active', '=', true)
      .where((eb) => eb(eb.fn('lower', [eb.fn('trim', ['name'])]), '=', wanted))
      .execute();
    if (matches.length !== 1) {
      throw new AppError(
        'BAD_REQUEST',
        matches.length === 0
          ? `No active staff member is named "${assignto}".`
          : `More than one staff member is named "${assignto}".`,
      );
    }
    return matches[0]!;
  }

  private async move(
    actor: Actor,
    rawIds: string[],
    versions: Record<string, number> | undefined,
    spec: MoveSpec,
  ): Promise<BulkResult> {
    const orderIds = [...new Set(rawIds.map(normalizeOrderId))];
    const expected = new Map(Object.entries(versions ?? {}).map(([k, v]) => [normalizeOrderId(k), v]));
    const result = await this.db.transaction().execute(async (trx) => {
      const locked = await lockOrders(trx, orderIds);
      const found = new Map(locked.map((o) => [o.order_id, o]));
      const skipped: BulkResult['skipped'] = [];
      const eligible: LockedOrder[] = [];
      for (const id of orderIds) {
        const order = found.get(id);
        const reason = !order
          ? 'does not exist'
          : order.payment_status !== 'Success'
            ? `is not paid (payment ${order.payment_status})`
            : expected.has(id) && expected.get(id) !== order.version
              ? 'was changed by someone else meanwhile; reload and try again'
              : spec.check(order);
        if (reason) skipped.push({ orderId: id, reason });
        else eligible.push(order!);
      }
      await updateOrders(
        trx,
        eligible.map((o) => o.id),
        spec.change,
      );
      await writeAudit(
        trx,
        actor,
        eligible.map((o) => ({
          action: spec.action,
          orderId: o.id,
          target: o.order_id,
          before: { process_status: o.process_status, assign_to: o.assign_to, version: o.version },
          after: { ...spec.change, version: o.version + 1 },
        })),
      );
      return { updated: eligible.map((o) => o.order_id), skipped };
    });
    if (result.updated.length === 0 && result.skipped.length > 0) {
      const first = result.skipped[0]!;
      const more = result.skipped.length > 1 ? ` (and ${result.skipped.length - 1} more)` : '';
      throw new AppError('CONFLICT', `Nothing was changed: order ${first.orderId} ${first.reason}${more}.`);
    }
    return result;
  }
}
