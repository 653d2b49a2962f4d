// Moves of orders between stages (DESIGN §3): Assign to me / to someone, Move to New orders, the status
// moves (Delete and the Admin's restore among them) and Refunded it. Every move locks its orders, checks
// payment, version, role and current status per order, changes the eligible ones and writes their audit
// rows, all in one transaction. Orders that cannot move are reported with a code, never overwritten.
import type { Kysely, Transaction } from 'kysely';
import { can, MOVE_TO_BUTTONS, type BulkResult, type ErrorCode, type ProcessStatus } from '@eta/contracts';
import type { DB, Staff } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { normalizeOrderId } from '../../lib/order-id.js';
import { writeAudit, type Actor, type AuditEntry } from '../audit/audit.repository.js';
import { assertCan } from '../auth/permissions.js';
import { changedBy, type OrderEventsPublisher } from '../events/order-events.publisher.js';
import { findActiveStaffByName } from '../staff/staff.repository.js';
import { selectRefundTargets, setRefundIds } from '../payments/payments.repository.js';
import type { PaymentsService } from '../payments/payments.service.js';
import { lockOrders, updateOrders, type LockedOrder, type OrderChange } from './orders.repository.js';
import { CLOSED_STATUSES } from './queues.js';

/** Statuses the detail page's Move-to buttons and bulk delete may set through change-order-status. */
const MOVABLE_TO: readonly ProcessStatus[] = MOVE_TO_BUTTONS.map((button) => button.status);

/** Why one order cannot move; null when it can. */
type Skip = { code: ErrorCode; reason: string } | null;
const skip = (code: ErrorCode, reason: string): Skip => ({ code, reason });

interface MoveSpec {
  action: AuditEntry['action'];
  check: (order: LockedOrder) => Skip;
  change: OrderChange;
  /** More that the move writes for its eligible orders, in its transaction; what the audit row adds per order. */
  alsoWrite?: (trx: Transaction<DB>, eligible: LockedOrder[]) => Promise<void>;
  auditAfter?: (order: LockedOrder) => Record<string, unknown>;
}

const heldBy = (o: LockedOrder) => skip('ORDER_HELD', `is held by ${o.assign_name ?? 'someone else'}`);

/** A Deleted order waits for an Admin's restore before anything else can happen to it. */
const deleted = (o: LockedOrder): Skip =>
  o.process_status === 'Deleted' ? skip('ORDER_DELETED', 'is deleted; an Admin must restore it first') : null;

/** Deleted, or closed for good (Completed, Refund Completed): not reopened through Move to New. */
const closed = (o: LockedOrder): Skip =>
  deleted(o) ?? (CLOSED_STATUSES.includes(o.process_status) ? skip('ORDER_CLOSED', `is ${o.process_status}`) : null);

/**
 * The version the person saw of each order, by normalized id. Every order of a write needs one (issue 22): without
 * it a change made meanwhile would be overwritten silently, so a missing one refuses the whole call with 400.
 */
function expectedVersions(orderIds: string[], versions: Record<string, number>): Map<string, number> {
  const expected = new Map(Object.entries(versions).map(([k, v]) => [normalizeOrderId(k), v]));
  const missing = orderIds.filter((id) => !expected.has(id));
  if (missing.length > 0) {
    const more = missing.length > 1 ? ` (and ${missing.length - 1} more)` : '';
    throw new AppError(
      'VALIDATION_FAILED',
      `Nothing was changed: the version you saw of order ${missing[0]}${more} was not sent. Reload the list and try again.`,
    );
  }
  return expected;
}

export class OrderMovesService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly payments: PaymentsService,
    private readonly orderEvents: OrderEventsPublisher,
  ) {}

  /** "Assign to me" (or, for Manager and Admin, to the person named): New or Pending → Pending, held. */
  async assignOrders(
    staff: Staff,
    actor: Actor,
    orderIds: string[],
    assignto: string,
    versions: Record<string, number>,
  ): Promise<BulkResult> {
    const assignee = await this.resolveAssignee(staff, assignto);
    const mayTakeOver = can(staff.type, 'assignToOthers');
    return this.move(actor, orderIds, versions, {
      action: 'order.assign',
      check: (o) => {
        if (o.process_status !== 'New' && o.process_status !== 'Pending') {
          return deleted(o) ?? skip('WRONG_STATUS', `is ${o.process_status}, not New or Pending`);
        }
        if (o.not_due_until) return skip('WRONG_STATUS', `is a Future order, not due before ${o.not_due_until}`);
        if (o.assign_to === assignee.id) return skip('ALREADY_IN_STATUS', `is already assigned to ${assignee.name}`);
        if (o.assign_to !== null && !mayTakeOver) return heldBy(o);
        return null;
      },
      change: { process_status: 'Pending', assign_to: assignee.id, assign_date: new Date() },
    });
  }

  /** "Move to New orders": your own open orders (Manager and Admin: anyone's) go back to New, unassigned. */
  moveToNew(staff: Staff, actor: Actor, orderIds: string[], versions: Record<string, number>): Promise<BulkResult> {
    const mayMoveOthers = can(staff.type, 'assignToOthers');
    return this.move(actor, orderIds, versions, {
      action: 'order.move-to-new',
      check: (o) => {
        const isClosed = closed(o);
        if (isClosed) return isClosed;
        if (o.assign_to === null) return skip('NOT_ASSIGNED', 'is not assigned to anyone');
        if (o.assign_to !== staff.id && !mayMoveOthers) return heldBy(o);
        return null;
      },
      change: { process_status: 'New', assign_to: null, assign_date: null },
    });
  }

  async changeStatus(
    staff: Staff,
    actor: Actor,
    orderIds: string[],
    to: ProcessStatus,
    permanent: boolean,
    versions: Record<string, number>,
  ): Promise<BulkResult> {
    if (permanent) {
      throw new AppError(
        'VALIDATION_FAILED',
        'Orders are never deleted permanently: they are kept as evidence. Use Delete (soft) instead.',
      );
    }
    const restoring = to === 'New';
    if (!MOVABLE_TO.includes(to) && !restoring) {
      throw new AppError('VALIDATION_FAILED', `An order cannot be moved to ${to} here.`);
    }
    if (to === 'Deleted') assertCan(staff.type, 'deleteOrders', 'delete orders');
    if (restoring) assertCan(staff.type, 'restoreDeleted', 'restore deleted orders');
    // An order someone holds is moved by its holder, a Manager or an Admin only (spec §6; issue 22).
    const mayMoveOthers = can(staff.type, 'assignToOthers');
    return this.move(actor, orderIds, versions, {
      action: restoring ? 'order.restore' : to === 'Deleted' ? 'order.delete' : 'order.change-status',
      check: (o) => {
        if (restoring) return o.process_status === 'Deleted' ? null : skip('WRONG_STATUS', 'is not deleted');
        if (o.process_status === to) return skip('ALREADY_IN_STATUS', `is already ${to}`);
        if (o.process_status === 'Refund Completed') return skip('ORDER_CLOSED', 'is already refunded');
        if (o.assign_to !== null && o.assign_to !== staff.id && !mayMoveOthers) return deleted(o) ?? heldBy(o);
        return deleted(o);
      },
      change: restoring
        ? { process_status: 'New', assign_to: null, assign_date: null }
        : { process_status: to, ...(to === 'Refunds' ? { refund_date: new Date() } : {}) },
    });
  }

  /**
   * "Refunded it" in the refund queue: Refunds → Refund Completed. An order whose payment its gateway confirmed is
   * refunded through that gateway first (outside the transaction, with the order's own idempotency key); only the
   * refunds that succeeded move, each with its refund id, and the others stay in Refunds with the gateway's reason.
   */
  async moveToCompleteRefund(actor: Actor, orderIds: string[], versions: Record<string, number>): Promise<BulkResult> {
    const ids = [...new Set(orderIds.map(normalizeOrderId))];
    // Checked before any gateway is asked: a call refused for a missing version must not have refunded anything.
    const { refunded, refused } = await this.refundAtGateways(ids, expectedVersions(ids, versions));
    return this.move(actor, orderIds, versions, {
      action: 'order.refund-completed',
      check: (o) =>
        o.process_status !== 'Refunds'
          ? (deleted(o) ?? skip('WRONG_STATUS', `is ${o.process_status}, not in Refunds`))
          : (refused.get(o.order_id) ?? null),
      change: { process_status: 'Refund Completed', refund_date: new Date() },
      alsoWrite: (trx, eligible) =>
        setRefundIds(
          trx,
          eligible.flatMap((o) =>
            refunded.has(o.order_id) ? [{ id: o.id, refundId: refunded.get(o.order_id)! }] : [],
          ),
        ),
      auditAfter: (o) => (refunded.has(o.order_id) ? { refund_id: refunded.get(o.order_id) } : {}),
    });
  }

  /** Refunds at their gateways the orders that need it and may move; the ids made, and each refusal's reason. */
  private async refundAtGateways(orderIds: string[], expected: Map<string, number>) {
    const refunded = new Map<string, string>();
    const refused = new Map<string, Skip>();
    for (const order of await selectRefundTargets(this.db, orderIds)) {
      const gateway = this.payments.refundsThroughGateway(order);
      const mayMove =
        order.process_status === 'Refunds' &&
        order.payment_status === 'Success' &&
        expected.get(order.order_id) === order.version;
      if (!gateway || !mayMove) continue;
      const result = await this.payments.refund(gateway, order);
      if (result.ok) refunded.set(order.order_id, result.refundId);
      else refused.set(order.order_id, skip('REFUND_FAILED', `was not refunded: ${result.reason}`));
    }
    return { refunded, refused };
  }

  private async resolveAssignee(staff: Staff, assignto: string): Promise<{ id: number; name: string }> {
    if (assignto.trim().toLowerCase() === staff.name.trim().toLowerCase()) return { id: staff.id, name: staff.name };
    assertCan(staff.type, 'assignToOthers', 'assign orders to someone else');
    const matches = await findActiveStaffByName(this.db, assignto);
    if (matches.length !== 1) {
      throw new AppError(
        'VALIDATION_FAILED',
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
    versions: Record<string, number>,
    spec: MoveSpec,
  ): Promise<BulkResult> {
    const orderIds = [...new Set(rawIds.map(normalizeOrderId))];
    const expected = expectedVersions(orderIds, versions);
    const result = await this.db.transaction().execute(async (trx) => {
      const locked = await lockOrders(trx, orderIds);
      const found = new Map(locked.map((o) => [o.order_id, o]));
      const skipped: BulkResult['skipped'] = [];
      const eligible: LockedOrder[] = [];
      for (const id of orderIds) {
        const order = found.get(id);
        const verdict = !order
          ? skip('ORDER_NOT_FOUND', 'does not exist')
          : order.payment_status !== 'Success'
            ? skip('NOT_PAID', `is not paid (payment ${order.payment_status})`)
            : expected.get(id) !== order.version
              ? skip('STALE_VERSION', 'was changed by someone else meanwhile')
              : spec.check(order);
        if (verdict) skipped.push({ orderId: id, ...verdict });
        else eligible.push(order!);
      }
      await updateOrders(
        trx,
        eligible.map((o) => o.id),
        spec.change,
        actor.id,
      );
      await spec.alsoWrite?.(trx, eligible);
      await writeAudit(
        trx,
        actor,
        eligible.map((o) => ({
          action: spec.action,
          orderId: o.id,
          target: o.order_id,
          before: { process_status: o.process_status, assign_to: o.assign_to, version: o.version },
          after: { ...spec.change, ...spec.auditAfter?.(o), version: o.version + 1 },
        })),
      );
      return { updated: eligible.map((o) => o.order_id), skipped, eligible };
    });
    this.orderEvents.changed(
      result.eligible.map((o) => ({
        orderId: o.order_id,
        version: o.version + 1,
        status: spec.change.process_status ?? o.process_status,
      })),
      changedBy(actor),
    );
    if (result.updated.length === 0 && result.skipped.length > 0) {
      const first = result.skipped[0]!;
      const more = result.skipped.length > 1 ? ` (and ${result.skipped.length - 1} more)` : '';
      throw new AppError(first.code, `Nothing was changed: order ${first.orderId} ${first.reason}${more}.`, {
        data: { updated: result.updated, skipped: result.skipped },
      });
    }
    return { updated: result.updated, skipped: result.skipped };
  }
}
