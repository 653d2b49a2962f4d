// The intake's answer about the payment (issue 21) is kept with the Idempotency-Key, so a retried request gets the
// same answer as the first, word for word.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE intake_requests ADD COLUMN payment jsonb`.execute(db);
}
