// The append-only audit trail: every staff write adds its rows in the same transaction as the write.
import type { Kysely, Transaction } from 'kysely';
import type { AuditAction } from '@eta/contracts';
import type { DB } from '../../db/schema.js';

/** Who did it: a signed-in staff member, or (id and name null) someone not signed in, by address. */
export interface Actor {
  id: number | null;
  name: string | null;
  ip: string;
}

export interface AuditEntry {
  /** One of AUDIT_ACTIONS, so every screen that shows the trail has it in words. */
  action: AuditAction;
  orderId?: number | null;
  target?: string | null;
  before?: unknown;
  after?: unknown;
}

/** An entry as the row audit_log stores (also inserted by the intake's one statement, intake.repository). */
export const auditRow = (actor: Actor | null, e: AuditEntry) => ({
  actor_id: actor?.id ?? null,
  actor_name: actor?.name ?? null,
  ip: actor?.ip ?? null,
  action: e.action,
  order_id: e.orderId ?? null,
  target: e.target ?? null,
  before: e.before ?? null,
  after: e.after ?? null,
});

const json = (value: unknown): string | null => (value === null ? null : JSON.stringify(value));

export async function writeAudit(
  db: Kysely<DB> | Transaction<DB>,
  actor: Actor | null,
  entries: AuditEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  await db
    .insertInto('audit_log')
    .values(
      entries.map((e) => {
        const row = auditRow(actor, e);
        return { ...row, before: json(row.before), after: json(row.after) };
      }),
    )
    .execute();
}
