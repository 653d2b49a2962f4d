// The append-only audit trail: every staff write adds its rows in the same transaction as the write.
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';

/** Who did it: a signed-in staff member, or (id and name null) someone not signed in, by address. */
export interface Actor {
  id: number | null;
  name: string | null;
  ip: string;
}

export interface AuditEntry {
  action: string;
  orderId?: number | null;
  target?: string | null;
  before?: unknown;
  after?: unknown;
}

export async function writeAudit(
  db: Kysely<DB> | Transaction<DB>,
  actor: Actor | null,
  entries: AuditEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  await db
    .insertInto('audit_log')
    .values(
      entries.map((e) => ({
        actor_id: actor?.id ?? null,
        actor_name: actor?.name ?? null,
        ip: actor?.ip ?? null,
        action: e.action,
        order_id: e.orderId ?? null,
        target: e.target ?? null,
        before: e.before === undefined ? null : JSON.stringify(e.before),
        after: e.after === undefined ? null : JSON.stringify(e.after),
      })),
    )
    .execute();
}
