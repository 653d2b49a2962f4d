// Payments and disputes (issue 21).
// - orders: the charge id beside the PaymentIntent id (a dispute names either), when the gateway confirmed the
//   payment, the next re-check of a payment the gateway could not be asked about (with its attempts), the refund
//   the gateway made, and the open dispute's evidence due date (the ChargeBack queue is worked soonest due first).
// - gateways: no secrets column (credentials live in the environment only); what the gateway page shows of each: the last webhook and whether its signature held, the last error.
// - gateway_events: every verified webhook, once by its id, with what it did ('unmatched' ones are shown to Admins).
// - disputes and dispute_history: a chargeback as the gateway reports it, and each change of it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE orders
    ADD COLUMN charge_id text,
    ADD COLUMN payment_verified_at timestamptz,
    ADD COLUMN payment_check_due_at timestamptz,
    ADD COLUMN payment_check_attempts integer NOT NULL DEFAULT 0,
    ADD COLUMN refund_id text,
    ADD COLUMN dispute_due_at timestamptz`.execute(db);
  // A webhook names the payment by the id the gateway gave it (the PaymentIntent, the capture, or the charge).
  await sql`CREATE INDEX orders_transaction_idx ON orders (transaction_id) WHERE transaction_id IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX orders_charge_idx ON orders (charge_id) WHERE charge_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX orders_payment_check_idx ON orders (payment_check_due_at)
    WHERE payment_check_due_at IS NOT NULL`.execute(db);
  await sql`CREATE INDEX orders_chargeback_idx ON orders (dispute_due_at ASC NULLS LAST, created_at DESC, id DESC)
    WHERE payment_status = 'Success' AND process_status = 'ChargeBack'`.execute(db);

  // Credentials come from the environment only: the unused secrets column goes, so none can be stored in clear.
  await sql`ALTER TABLE gateways
    DROP COLUMN secrets,
    ADD COLUMN last_webhook_at timestamptz,
    ADD COLUMN last_webhook_verified boolean,
    ADD COLUMN last_error text,
    ADD COLUMN last_error_at timestamptz`.execute(db);

  await sql`
    CREATE TABLE gateway_events (
      id bigserial PRIMARY KEY,
      gateway_id integer NOT NULL REFERENCES gateways (id),
      event_id text NOT NULL,
      type text NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now(),
      payload jsonb NOT NULL,
      order_id bigint REFERENCES orders (id),
      outcome text NOT NULL CHECK (outcome IN ('applied', 'ignored', 'unmatched')),
      note text NOT NULL DEFAULT '',
      UNIQUE (gateway_id, event_id)
    )`.execute(db);
  await sql`CREATE INDEX gateway_events_unmatched_idx ON gateway_events (received_at DESC, id DESC)
    WHERE outcome = 'unmatched'`.execute(db);

  await sql`
    CREATE TABLE disputes (
      id bigserial PRIMARY KEY,
      order_id bigint NOT NULL REFERENCES orders (id),
      gateway_id integer NOT NULL REFERENCES gateways (id),
      dispute_id text NOT NULL,
      reason text NOT NULL,
      amount_cents integer NOT NULL CHECK (amount_cents >= 0),
      currency text NOT NULL,
      status text NOT NULL,
      evidence_due_by timestamptz,
      outcome text CHECK (outcome IN ('won', 'lost')),
      outcome_at timestamptz,
      evidence_state text CHECK (evidence_state IN ('draft', 'submitted')),
      evidence_pack_type smallint CHECK (evidence_pack_type IN (1, 2)),
      evidence_by integer REFERENCES staff (id),
      evidence_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (gateway_id, dispute_id)
    )`.execute(db);
  await sql`CREATE INDEX disputes_order_idx ON disputes (order_id, created_at DESC)`.execute(db);
  await sql`CREATE INDEX disputes_created_idx ON disputes (created_at)`.execute(db);
  await sql`
    CREATE TABLE dispute_history (
      id bigserial PRIMARY KEY,
      dispute_id bigint NOT NULL REFERENCES disputes (id),
      at timestamptz NOT NULL DEFAULT now(),
      status text NOT NULL,
      outcome text,
      by_name text NOT NULL,
      note text NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX dispute_history_dispute_idx ON dispute_history (dispute_id, at, id)`.execute(db);
}
