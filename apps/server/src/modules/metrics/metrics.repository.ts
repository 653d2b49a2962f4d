// The SQL behind GET /metrics: backlogs the desk should never let grow (the mail outbox, overdue payment checks) and
// how long ago each gateway last sent a webhook. Each is one small query per scrape.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export interface Backlogs {
  /** Mails waiting to be sent (first attempt or a retry). */
  outboxQueued: number;
  /** Age of the oldest of them, in seconds; null when none waits. */
  outboxOldestSeconds: number | null;
  /** How far behind the oldest due payment re-check is, in seconds; null when none is due. */
  paymentCheckLagSeconds: number | null;
  /** Seconds since each gateway's last webhook (gateways that never sent one are left out). */
  lastWebhookSeconds: { gateway: string; seconds: number }[];
}

/** Indexes: mails_outbox_idx (partial, state = 'queued'); orders_payment_check_idx (partial, due ones only). */
export async function selectBacklogs(db: Kysely<DB>): Promise<Backlogs> {
  const { rows } = await sql<{ queued: number; oldest: number | null; check_lag: number | null }>`
    SELECT
      (SELECT count(*) FROM mails WHERE state = 'queued') AS queued,
      (SELECT extract(epoch FROM now() - min(created_at)) FROM mails WHERE state = 'queued') AS oldest,
      (SELECT extract(epoch FROM now() - min(payment_check_due_at)) FROM orders
        WHERE payment_check_due_at IS NOT NULL AND payment_check_due_at <= now()) AS check_lag`.execute(db);
  const webhooks = await sql<{ gateway: string; seconds: number }>`
    SELECT gateway_name AS gateway, extract(epoch FROM now() - last_webhook_at) AS seconds
    FROM gateways WHERE last_webhook_at IS NOT NULL`.execute(db);
  const row = rows[0]!;
  return {
    outboxQueued: Number(row.queued),
    outboxOldestSeconds: row.oldest === null ? null : Number(row.oldest),
    paymentCheckLagSeconds: row.check_lag === null ? null : Number(row.check_lag),
    lastWebhookSeconds: webhooks.rows.map((r) => ({ gateway: r.gateway, seconds: Number(r.seconds) })),
  };
}
