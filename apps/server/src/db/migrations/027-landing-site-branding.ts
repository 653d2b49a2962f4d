// An Admin adds landing sites and edits their branding (issue 33). A site's row gets a version, bumped by every change
// of its branding or logo, so an edit made from a stale page is refused instead of overwriting one made meanwhile; and
// the logo an Admin uploads: its key in the document store, its type (judged by content) and its sha256, the three
// together or none. logo_url stays the address pages and mails use: the public logo route's for an uploaded logo, the
// web app's /brand/ files for the seeded ones.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE landing_sites ADD COLUMN version integer NOT NULL DEFAULT 1 CHECK (version >= 1)`.execute(db);
  await sql`ALTER TABLE landing_sites
    ADD COLUMN logo_key text,
    ADD COLUMN logo_content_type text CHECK (logo_content_type IN ('image/png', 'image/jpeg')),
    ADD COLUMN logo_sha256 text CHECK (logo_sha256 ~ '^[0-9a-f]{64}$'),
    ADD CONSTRAINT landing_sites_logo_whole CHECK (
      (logo_key IS NULL) = (logo_content_type IS NULL) AND (logo_key IS NULL) = (logo_sha256 IS NULL)
    )`.execute(db);
}
