// A mail in flight when its process died waited out its 2-minute lease before anyone sent it again (issue 32). A
// claim now names who made it: the server (the same name across its restarts) and that server's start (a new id each
// time), so a server that starts again takes back the claims of its own earlier start at once; another server's live
// claims are left alone until their lease ends.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE mails ADD COLUMN claimed_by text`.execute(db);
  await sql`ALTER TABLE mails ADD COLUMN claim_boot uuid`.execute(db);
}
