// The live desk (DESIGN §6): stream tickets, the streams of this process and presence on orders. The routes
// call only this; the hub and the presence registry behind it are fed by the event bus.
import type { Kysely } from 'kysely';
import type { EventsTicket, PresenceBody, PresenceEvent } from '@eta/contracts';
import type { DB, Staff } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { normalizeOrderId } from '../../lib/order-id.js';
import type { Session } from '../auth/auth.service.js';
import type { EventTickets } from './event-tickets.js';
import type { LiveDeskHub, StreamSink } from './live-desk.hub.js';
import { selectOrderStates } from './live-desk.repository.js';

export class LiveDeskService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly tickets: EventTickets,
    private readonly hub: LiveDeskHub,
  ) {}

  /** Open streams in this process. */
  get clients(): number {
    return this.hub.clients;
  }

  issueTicket(session: Session): Promise<EventsTicket> {
    return this.tickets.issue(session);
  }

  redeemTicket(ticket: string): Promise<Session> {
    return this.tickets.redeem(ticket);
  }

  openStream(session: Session, sink: StreamSink): Promise<() => void> {
    return this.hub.connect(session.staff, session.token.expiresAt, sink);
  }

  /**
   * A heartbeat of someone on an order's detail page. Every role that works orders may open any order (the detail
   * page has no finer rule), so everyone with a stream sees everyone's presence.
   */
  async setPresence(staff: Staff, rawOrderId: string, activity: PresenceBody['activity']): Promise<PresenceEvent> {
    const orderId = normalizeOrderId(rawOrderId);
    const [order] = await selectOrderStates(this.db, [orderId]);
    if (!order) throw new AppError('ORDER_NOT_FOUND', `Order ${rawOrderId.trim()} was not found.`);
    return { orderId, people: this.hub.presence.beat(orderId, staff, activity) };
  }

  /** Ends every stream with a retry hint. */
  close(): void {
    this.hub.close();
  }
}
