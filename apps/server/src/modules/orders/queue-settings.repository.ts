// The queue screens' settings (issue 35, migration 033): target times per processing type and each member's
// urgent-first choices. A handful of rows each.
import type { Kysely, Transaction } from 'kysely';
import { PROCESSING_TYPES, QUEUE_NAMES, type ProcessingTargets, type QueueName } from '@eta/contracts';
import type { DB } from '../../db/schema.js';

type Db = Kysely<DB> | Transaction<DB>;

export async function selectTargets(db: Db): Promise<ProcessingTargets> {
  const rows = await db.selectFrom('processing_targets').select(['processing_type', 'target_minutes']).execute();
  const minutes = new Map(rows.map((r) => [r.processing_type, r.target_minutes]));
  return Object.fromEntries(PROCESSING_TYPES.map((t) => [t, minutes.get(t) ?? null])) as ProcessingTargets;
}

export async function saveTargets(trx: Transaction<DB>, targets: ProcessingTargets, staffId: number): Promise<void> {
  await trx
    .insertInto('processing_targets')
    .values(
      PROCESSING_TYPES.map((t) => ({
        processing_type: t,
        target_minutes: targets[t],
        updated_at: new Date(),
        updated_by: staffId,
      })),
    )
    .onConflict((oc) =>
      oc.column('processing_type').doUpdateSet((eb) => ({
        target_minutes: eb.ref('excluded.target_minutes'),
        updated_at: eb.ref('excluded.updated_at'),
        updated_by: eb.ref('excluded.updated_by'),
      })),
    )
    .execute();
}

export async function selectUrgentFirstQueues(db: Db, staffId: number): Promise<QueueName[]> {
  const row = await db
    .selectFrom('staff_list_preferences')
    .select('urgent_first_queues')
    .where('staff_id', '=', staffId)
    .executeTakeFirst();
  const known = new Set<string>(QUEUE_NAMES);
  return (row?.urgent_first_queues ?? []).filter((q): q is QueueName => known.has(q));
}

export async function saveUrgentFirstQueues(db: Db, staffId: number, queues: QueueName[]): Promise<void> {
  await db
    .insertInto('staff_list_preferences')
    .values({ staff_id: staffId, urgent_first_queues: queues, updated_at: new Date() })
    .onConflict((oc) =>
      oc.column('staff_id').doUpdateSet((eb) => ({
        urgent_first_queues: eb.ref('excluded.urgent_first_queues'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}
