// What the desk read in an approved document (issue 35): the approval's own facts (IRCC's application number, the
// approval and expiry dates) beside the document they came from, and how it was read (its own text or OCR; whether it
// named the order's traveller; the reason a member gave to send it when it did not). The application number is
// searched whole (partial index: documents read since this migration).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE documents
    ADD COLUMN application_number text,
    ADD COLUMN approved_on date,
    ADD COLUMN expires_on date,
    ADD COLUMN reading jsonb`.execute(db);
  await sql`CREATE INDEX documents_application_number_idx ON documents (application_number)
    WHERE application_number IS NOT NULL`.execute(db);
}
