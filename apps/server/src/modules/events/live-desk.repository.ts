// The live desk's reads and its one write: orders' current version and status (for order events and presence
// checks), and the single use of a stream ticket, kept beside revoked sessions in every process's database.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** Orders' version and status by order id (the unique index on orders.order_id). */
export const selectOrderStates = (db: Kysely<DB>, orderIds: readonly string[]) =>
  orderIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('orders')
        .select(['order_id', 'version', 'process_status'])
        .where('order_id', 'in', orderIds)
        .execute();

/** The same by the orders' row keys (the primary key). */
export const selectOrderStatesByKey = (db: Kysely<DB>, orderKeys: readonly number[]) =>
  orderKeys.length === 0
    ? Promise.resolve([])
    : db.selectFrom('orders').select(['order_id', 'version', 'process_status']).where('id', 'in', orderKeys).execute();

/**
 * Marks a ticket used; true only for its first use, whichever process sees it. A used ticket is a revoked token
 * (revoked_sessions: its jti until it would have expired anyway), and the member's rows that have expired are
 * dropped on the way (revoked_sessions_staff_idx), so tickets never pile up there.
 */
export async function useTicketOnce(
  db: Kysely<DB>,
  ticket: { jti: string; staffId: number; expiresAt: Date },
): Promise<boolean> {
  await db
    .deleteFrom('revoked_sessions')
    .where('staff_id', '=', ticket.staffId)
    .where('expires_at', '<=', new Date())
    .execute();
  const inserted = await db
    .insertInto('revoked_sessions')
    .values({ jti: ticket.jti, staff_id: ticket.staffId, expires_at: ticket.expiresAt })
    .onConflict((oc) => oc.column('jti').doNothing())
    .returning('jti')
    .executeTakeFirst();
  return inserted !== undefined;
}
