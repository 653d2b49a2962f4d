// All SQL of the Activity page: the audit trail newest first, paged over keys (at, id) so page 1,000 costs
// what page 1 does. Indexes (migration 007): audit_log_keyset_idx (at DESC, id DESC) for the whole trail,
// audit_log_actor_idx (actor_id, at DESC, id DESC) for a person, audit_log_action_idx (action, at DESC,
// id DESC) for an action, audit_log_order_idx (order_id, at DESC) for an order (001).
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export interface ActivityFilter {
  actorId: number | null;
  /** orders.id of the order asked for. */
  orderKey: number | null;
  action: string | null;
  /** Inclusive lower bound and exclusive upper bound (UTC midnights). */
  from: Date | null;
  until: Date | null;
}

/** The last row of a page: `at` exactly as stored (microseconds), as text, and its id. */
export interface ActivityKey {
  at: string;
  id: number;
}

export interface ActivityDbRow {
  id: number;
  at: Date;
  at_key: string;
  actor_id: number | null;
  actor_name: string | null;
  action: string;
  order_id: string | null;
  target: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
}

export function selectActivity(
  db: Kysely<DB>,
  f: ActivityFilter,
  after: ActivityKey | null,
  limit: number,
): Promise<ActivityDbRow[]> {
  return db
    .selectFrom('audit_log as a')
    .leftJoin('orders as o', 'o.id', 'a.order_id')
    .select([
      'a.id',
      'a.at',
      sql<string>`to_char(a.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('at_key'),
      'a.actor_id',
      'a.actor_name',
      'a.action',
      'o.order_id',
      'a.target',
      'a.before',
      'a.after',
      'a.ip',
    ])
    .$if(f.actorId !== null, (qb) => qb.where('a.actor_id', '=', f.actorId!))
    .$if(f.orderKey !== null, (qb) => qb.where('a.order_id', '=', f.orderKey!))
    .$if(f.action !== null, (qb) => qb.where('a.action', '=', f.action!))
    .$if(f.from !== null, (qb) => qb.where('a.at', '>=', f.from!))
    .$if(f.until !== null, (qb) => qb.where('a.at', '<', f.until!))
    .$if(after !== null, (qb) =>
      qb.where(sql<boolean>`(a.at, a.id) < (${after!.at}::timestamptz, ${after!.id}::bigint)`),
    )
    .orderBy('a.at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(limit)
    .execute()
    .then((rows) => rows.map((r) => ({ ...r, id: Number(r.id) })));
}

export const findOrderKey = (db: Kysely<DB>, orderId: string) =>
  db.selectFrom('orders').select('id').where('order_id', '=', orderId).executeTakeFirst();

/** Everyone who may appear as a row's actor, deleted members too (their rows stay in the trail). */
export const listPeople = (db: Kysely<DB>) =>
  db.selectFrom('staff').select(['id', 'name', 'active']).orderBy('name').orderBy('id').execute();
