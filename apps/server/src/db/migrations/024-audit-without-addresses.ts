// The append-only trails keep no customer's e-mail address (issue 24, review of erasure). Erasure blanks an order's
// addresses in orders and mails but cannot rewrite audit_log, so the audit names a customer's mail by its id (the
// mails row, which erasure blanks) since this migration; here the addresses already written are taken out of the
// rows that carried them: order.intake and order.upload-document (after.mail.to) and mail.resend (after.to).
// Subject requests name the person by a keyed hash of the e-mail since this migration; the plain SHA-256 they used
// before (which a list of candidate addresses reverses, and which cannot be turned into the keyed one without the
// address) is taken out of the subject.* audit rows' target, the order.erase rows' after.emailSha256 and the
// access records of subject-access exports.
//
// audit_log and access_records are append-only by trigger (migrations 001 and 022). The triggers are disabled for
// these updates only and enabled again, inside this migration's transaction (Kysely's migrator runs each migration
// in one on both PostgreSQL and PGlite): ALTER TABLE's lock keeps every other session out of the tables until it
// commits, so none sees them writable, and a failure rolls the disabling back with the rest.
import { sql, type Kysely } from 'kysely';

/** What a removed plain hash reads as from now on. */
const REMOVED = 'sha256:(removed)';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update`.execute(db);
  await sql`UPDATE audit_log SET after = after #- '{mail,to}'
    WHERE action IN ('order.intake', 'order.upload-document') AND after -> 'mail' -> 'to' IS NOT NULL`.execute(db);
  await sql`UPDATE audit_log SET after = after - 'to'
    WHERE action = 'mail.resend' AND after -> 'to' IS NOT NULL`.execute(db);
  await sql`UPDATE audit_log SET target = ${REMOVED}
    WHERE action IN ('subject.access', 'subject.erasure') AND starts_with(target, 'sha256:')`.execute(db);
  await sql`UPDATE audit_log SET after = after - 'emailSha256'
    WHERE action = 'order.erase' AND after -> 'emailSha256' IS NOT NULL`.execute(db);
  await sql`ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_update`.execute(db);

  await sql`ALTER TABLE access_records DISABLE TRIGGER access_records_no_update`.execute(db);
  await sql`UPDATE access_records SET detail = regexp_replace(detail, 'sha256:[0-9a-f]{64}', ${REMOVED}, 'g')
    WHERE kind = 'export' AND detail ~ 'sha256:[0-9a-f]{64}'`.execute(db);
  await sql`ALTER TABLE access_records ENABLE TRIGGER access_records_no_update`.execute(db);
}
