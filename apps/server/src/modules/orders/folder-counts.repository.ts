// All 14 folder counts in one query over order_counters (kept by a trigger, migration 002): a few hundred
// rows at most, so the answer costs well under a millisecond even at a million orders.
import { sql, type Kysely } from 'kysely';
import type { FolderCounts } from '@eta/contracts';
import type { DB } from '../../db/schema.js';

export async function selectFolderCounts(db: Kysely<DB>, staffId: number): Promise<FolderCounts> {
  const { rows } = await sql<Record<keyof FolderCounts, number | null>>`
    SELECT
      sum(n) FILTER (WHERE assign_to = ${staffId}
                       AND process_status NOT IN ('Completed', 'Deleted', 'Refund Completed')) AS "myOrdersCount",
      sum(n) FILTER (WHERE process_status = 'New' AND assign_to = 0
                       AND (processing_type = 'Standard'
                            OR (processing_type = 'Future' AND processing_date <= current_date))) AS "newOrdersCount",
      sum(n) FILTER (WHERE process_status = 'New' AND assign_to = 0 AND processing_type = 'Priority') AS "priorityOrdersCount",
      sum(n) FILTER (WHERE process_status = 'Pending') AS "pendingOrdersCount",
      sum(n) FILTER (WHERE process_status = 'Completed') AS "completedOrdersCount",
      sum(n) FILTER (WHERE process_status = 'Awaiting') AS "awaitingOrdersCount",
      sum(n) FILTER (WHERE process_status = 'AwaitingGovt') AS "awaitingGovtCount",
      sum(n) FILTER (WHERE process_status = 'Customer Called') AS "customerCalledCount",
      sum(n) FILTER (WHERE process_status = 'Contact Customer') AS "contactCustomerOrdersCount",
      sum(n) FILTER (WHERE process_status <> 'Deleted') AS "allOrdersCount",
      sum(n) FILTER (WHERE process_status = 'Deleted') AS "deletedOrdersCount",
      sum(n) FILTER (WHERE process_status = 'Refunds') AS "refundOrdersCount",
      sum(n) FILTER (WHERE process_status = 'ChargeBack') AS "chargeBackCount",
      sum(n) FILTER (WHERE process_status = 'New' AND processing_type = 'Future'
                       AND processing_date > current_date) AS "futureOrdersCount"
    FROM order_counters`.execute(db);
  const row = rows[0]!;
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v ?? 0)])) as FolderCounts;
}
