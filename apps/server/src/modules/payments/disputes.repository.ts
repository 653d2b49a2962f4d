// All SQL of disputes as the desk reads and answers them (issue 21). Indexes: disputes_order_idx,
// dispute_history_dispute_idx, disputes_created_idx (the report's range).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DisputesReportBody } from '@eta/contracts';
import type { DB } from '../../db/schema.js';

type Db = Kysely<DB> | Transaction<DB>;

/** An order's disputes, newest first, with who sent their evidence. */
export const selectDisputes = (db: Db, orderKey: number) =>
  db
    .selectFrom('disputes as d')
    .innerJoin('gateways as g', 'g.id', 'd.gateway_id')
    .leftJoin('staff as s', 's.id', 'd.evidence_by')
    .select([
      'd.id',
      'g.gateway_name',
      'd.dispute_id',
      'd.reason',
      'd.amount_cents',
      'd.currency',
      'd.status',
      'd.evidence_due_by',
      'd.outcome',
      'd.outcome_at',
      'd.evidence_state',
      'd.evidence_pack_type',
      's.name as evidence_by',
      'd.evidence_at',
      'd.created_at',
    ])
    .where('d.order_id', '=', orderKey)
    .orderBy('d.created_at', 'desc')
    .execute();

export const selectDisputeHistory = (db: Db, disputeIds: number[]) =>
  disputeIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('dispute_history')
        .selectAll()
        .where('dispute_id', 'in', disputeIds)
        .orderBy('at')
        .orderBy('id')
        .execute();

/** The order with its newest dispute (null columns when it has none). */
export const selectNewestDispute = (db: Db, orderId: string) =>
  db
    .selectFrom('orders as o')
    .leftJoin('disputes as d', 'd.order_id', 'o.id')
    .leftJoin('gateways as g', 'g.id', 'd.gateway_id')
    .select([
      'o.id as order_key',
      'o.order_id',
      'd.id',
      'd.dispute_id',
      'd.status',
      'd.outcome',
      'd.evidence_state',
      'g.gateway_name',
    ])
    .where('o.order_id', '=', orderId)
    .orderBy('d.created_at', 'desc')
    .limit(1)
    .executeTakeFirst();

/** Locks a dispute while its evidence goes to the gateway: one submission at a time. */
export const lockDisputeEvidence = (trx: Transaction<DB>, id: number) =>
  trx
    .selectFrom('disputes')
    .select(['evidence_state', 'status'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirstOrThrow();

export async function markEvidence(
  trx: Transaction<DB>,
  id: number,
  e: { state: 'draft' | 'submitted'; packType: number; by: number | null },
): Promise<void> {
  await trx
    .updateTable('disputes')
    .set({
      evidence_state: e.state,
      evidence_pack_type: e.packType,
      evidence_by: e.by,
      evidence_at: sql<Date>`now()`,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .execute();
}

/** Disputes per month opened (UTC), landing site, gateway and reason, with how each ended. */
export const selectDisputesReport = (db: Db, filter: DisputesReportBody) =>
  db
    .selectFrom('disputes as d')
    .innerJoin('orders as o', 'o.id', 'd.order_id')
    .innerJoin('gateways as g', 'g.id', 'd.gateway_id')
    .select([
      sql<string>`to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM')`.as('month'),
      'o.landing_site',
      'g.gateway_name',
      'd.reason',
      sql<number>`count(*)::int`.as('opened'),
      sql<number>`(count(*) FILTER (WHERE d.outcome = 'won'))::int`.as('won'),
      sql<number>`(count(*) FILTER (WHERE d.outcome = 'lost'))::int`.as('lost'),
      sql<number>`(count(*) FILTER (WHERE d.outcome IS NULL))::int`.as('open'),
    ])
    .$if(Boolean(filter.fromDate), (q) => q.where('d.created_at', '>=', sql<Date>`${filter.fromDate}::date`))
    .$if(Boolean(filter.toDate), (q) => q.where('d.created_at', '<', sql<Date>`${filter.toDate}::date + 1`))
    .groupBy([sql`1`, 'o.landing_site', 'g.gateway_name', 'd.reason'])
    .orderBy(sql`1`, 'desc')
    .orderBy('o.landing_site')
    .orderBy('g.gateway_name')
    .orderBy('d.reason')
    .execute();
