// Order intake (issue 20).
// - legal_texts: a landing site's disclaimer and fee text as versions that are never edited in place; an order
//   keeps the version its customer agreed to (orders.legal_version). The texts each site had become version 1,
//   which every existing order agreed to.
// - intake_keys: the landing sites' API keys, stored as SHA-256 of their secret part only; a rotated key keeps
//   working until retires_at (a grace period, or at once). orders.intake_key_id says which key brought an order.
// - intake_requests: Idempotency-Key → the order it made and the hash of the body, kept at least 24 hours.
// - documents.storage_key is no longer unique: the demo data's orders share one stored demo document.
// - mails.kind takes 'confirmation' (the order-confirmation mail).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE legal_texts (
      landing_site text NOT NULL REFERENCES landing_sites (key),
      version integer NOT NULL CHECK (version >= 1),
      disclaimer text NOT NULL,
      fee_text text NOT NULL,
      created_by integer REFERENCES staff (id),
      created_by_name text,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (landing_site, version)
    )`.execute(db);
  await sql`CREATE FUNCTION legal_texts_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'legal_texts are versions: save a new version instead of changing one';
    END $$`.execute(db);
  await sql`CREATE TRIGGER legal_texts_no_update BEFORE UPDATE OR DELETE ON legal_texts
    FOR EACH ROW EXECUTE FUNCTION legal_texts_immutable()`.execute(db);
  await sql`
    INSERT INTO legal_texts (landing_site, version, disclaimer, fee_text, created_at)
    SELECT key, 1, disclaimer, fee_text, created_at FROM landing_sites`.execute(db);
  await sql`ALTER TABLE landing_sites DROP COLUMN disclaimer, DROP COLUMN fee_text, DROP COLUMN intake_key_hash`.execute(
    db,
  );

  await sql`ALTER TABLE orders ADD COLUMN legal_version integer NOT NULL DEFAULT 1`.execute(db);
  await sql`ALTER TABLE orders ADD CONSTRAINT orders_legal_text_fkey FOREIGN KEY (landing_site, legal_version)
    REFERENCES legal_texts (landing_site, version)`.execute(db);

  await sql`
    CREATE TABLE intake_keys (
      id text PRIMARY KEY CHECK (id ~ '^[0-9a-f]{16}$'),
      landing_site text NOT NULL REFERENCES landing_sites (key),
      secret_sha256 bytea NOT NULL CHECK (length(secret_sha256) = 32),
      created_by integer REFERENCES staff (id),
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz,
      retires_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX intake_keys_site_idx ON intake_keys (landing_site, created_at DESC)`.execute(db);
  await sql`ALTER TABLE orders ADD COLUMN intake_key_id text REFERENCES intake_keys (id)`.execute(db);
  // How many orders a key brought in (the Landing Sites page): an index-only count of that key's entries.
  await sql`CREATE INDEX orders_intake_key_idx ON orders (intake_key_id) WHERE intake_key_id IS NOT NULL`.execute(db);

  await sql`
    CREATE TABLE intake_requests (
      landing_site text NOT NULL REFERENCES landing_sites (key),
      idempotency_key text NOT NULL,
      body_sha256 bytea NOT NULL,
      order_id bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (landing_site, idempotency_key)
    )`.execute(db);
  await sql`CREATE INDEX intake_requests_created_idx ON intake_requests (created_at)`.execute(db);
  // An order's deletion (ON DELETE CASCADE) finds its request row by this, not by reading the whole table.
  await sql`CREATE INDEX intake_requests_order_idx ON intake_requests (order_id)`.execute(db);

  await sql`ALTER TABLE documents DROP CONSTRAINT documents_storage_key_key`.execute(db);
  await sql`CREATE INDEX documents_storage_key_idx ON documents (storage_key)`.execute(db);

  await sql`ALTER TABLE mails DROP CONSTRAINT mails_kind_check`.execute(db);
  await sql`ALTER TABLE mails ADD CONSTRAINT mails_kind_check
    CHECK (kind IN ('approval', 'invoice', 'resend', 'refund', 'confirmation'))`.execute(db);
}
