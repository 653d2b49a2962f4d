// The mail outbox (DESIGN §5): a lease for the worker that claimed a row, the sender and attachments each
// mail goes out with, and where each landing site's customer portal lives (the approval mail links there).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // locked_until: a worker owns the row until then; a row claimed by a process that died is due again after it.
  await sql`ALTER TABLE mails ADD COLUMN locked_until timestamptz`.execute(db);
  await sql`ALTER TABLE mails ADD COLUMN from_address text`.execute(db);
  // [{filename, contentType, storageKey}]: the bytes stay in the document store, the row names them.
  await sql`ALTER TABLE mails ADD COLUMN attachments jsonb NOT NULL DEFAULT '[]'::jsonb
    CHECK (jsonb_typeof(attachments) = 'array')`.execute(db);
  // The claim reads due queued rows oldest first; rows in flight (a worker's batch) are skipped by their lease.
  // Replaces 001's index on next_attempt_at alone so the id tie-breaker of the claim's ORDER BY is covered too.
  await sql`DROP INDEX mails_outbox_idx`.execute(db);
  await sql`CREATE INDEX mails_outbox_idx ON mails (next_attempt_at, id) WHERE state = 'queued'`.execute(db);

  await sql`ALTER TABLE landing_sites ADD COLUMN portal_url text CHECK (portal_url ~ '^https?://[^/]+(/.*[^/])?$')`.execute(
    db,
  );
  await sql`
    UPDATE landing_sites SET portal_url = CASE key
      WHEN 'default' THEN 'https://www.canada-eta-online.example'
      WHEN 'eta-express' THEN 'https://www.eta-express.example'
      WHEN 'canada-travel-auth' THEN 'https://www.canada-travel-auth.example'
    END`.execute(db);
}
