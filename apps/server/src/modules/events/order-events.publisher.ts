// The one way services tell the desk that orders changed: after their transaction commits they hand the orders
// here, and every process's live desk hears it on 'eta_orders'. Services never write to streams themselves.
import type { Kysely } from 'kysely';
import type { OrderAddition, ProcessStatus } from '@eta/contracts';
import type { DB } from '../../db/schema.js';
import { outsideRequest } from '../../db/statement-budget.js';
import type { Actor } from '../audit/audit.repository.js';
import type { EventBus } from './event-bus.js';
import { selectOrderStates, selectOrderStatesByKey } from './live-desk.repository.js';

export interface ChangedOrder {
  orderId: string;
  version: number;
  status: ProcessStatus;
  /** What the write added to the order's detail page (a comment, a mail, a download), if it did. */
  added?: OrderAddition;
}

/** Who made a change: a staff member, or by name only a system actor (a gateway's webhook, intake); null: unknown. */
export type ChangedBy = { id: number | null; name: string } | null;

export const changedBy = (actor: Actor): ChangedBy =>
  actor.id !== null || actor.name ? { id: actor.id, name: actor.name ?? '' } : null;

/**
 * The JSON on 'eta_orders': orders as [orderId, version, status] to fit a bulk move into few notifications, with what
 * the write added to the order as a fourth element when it added something.
 */
export interface OrdersChangedMessage {
  by: ChangedBy;
  orders: ([string, number, ProcessStatus] | [string, number, ProcessStatus, OrderAddition])[];
}

/** NOTIFY carries at most 8000 bytes; 60 orders of ~40 bytes each stay well inside it. */
const ORDERS_PER_MESSAGE = 60;

export class OrderEventsPublisher {
  constructor(
    private readonly bus: EventBus,
    private readonly db: Kysely<DB>,
    private readonly onError: (err: unknown) => void,
    /**
     * Told at once, in this process, before anything is published: what keeps derived counts (the urgent and late
     * counts) forgets them, so this request's own next read is fresh; other processes hear it on the bus.
     */
    private readonly onLocalChange: () => void = () => {},
  ) {}

  /**
   * Publishes orders whose new version and status the caller knows. Never throws and is not awaited: a lost
   * event costs a live update (the lists still reload on navigation), never the write that already committed. The
   * reads below run outside the request (db/statement-budget.ts): a client that leaves after the commit still has
   * its change announced.
   */
  changed(orders: readonly ChangedOrder[], by: ChangedBy): void {
    this.onLocalChange();
    for (let i = 0; i < orders.length; i += ORDERS_PER_MESSAGE) {
      const message: OrdersChangedMessage = {
        by,
        orders: orders
          .slice(i, i + ORDERS_PER_MESSAGE)
          .map((o) => (o.added ? [o.orderId, o.version, o.status, o.added] : [o.orderId, o.version, o.status])),
      };
      this.bus.publish('eta_orders', JSON.stringify(message)).catch(this.onError);
    }
  }

  /** Publishes orders by id, reading their version and status as committed (writes that do not return them). */
  changedById(orderIds: readonly string[], by: ChangedBy): void {
    this.onLocalChange();
    outsideRequest(() => this.publishRead(selectOrderStates(this.db, orderIds), by));
  }

  /**
   * A write that added a row to the order's detail page without moving its version (a comment, a mail, a customer's
   * download): published with the order's version and status as committed, and the row, so a page at that same
   * version can tell that it lacks the row.
   */
  addedTo(orderId: string, added: OrderAddition, by: ChangedBy): void {
    outsideRequest(() => this.publishRead(selectOrderStates(this.db, [orderId]), by, added));
  }

  /** The same by the orders' row keys (orders.id), for writes that know only those. */
  changedByKey(orderKeys: readonly number[], by: ChangedBy): void {
    this.onLocalChange();
    outsideRequest(() => this.publishRead(selectOrderStatesByKey(this.db, orderKeys), by));
  }

  private publishRead(
    read: Promise<{ order_id: string; version: number; process_status: ProcessStatus }[]>,
    by: ChangedBy,
    added?: OrderAddition,
  ): void {
    read
      .then((rows) =>
        this.changed(
          rows.map((r) => ({
            orderId: r.order_id,
            version: r.version,
            status: r.process_status,
            ...(added ? { added } : {}),
          })),
          by,
        ),
      )
      .catch(this.onError);
  }
}
