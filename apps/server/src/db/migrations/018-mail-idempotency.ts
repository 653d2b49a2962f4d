// A mail sent twice after a crash (issue 22): every outbox row gets a key of its own that each attempt carries to the
// provider (a header, and SendGrid's custom_args / SES's tags), and a mark of an attempt that may be at the
// provider without its outcome recorded (sending_since), so the next claim can ask the provider before sending again.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE mails ADD COLUMN message_key uuid NOT NULL DEFAULT gen_random_uuid()`.execute(db);
  await sql`ALTER TABLE mails ADD COLUMN sending_since timestamptz`.execute(db);
}
