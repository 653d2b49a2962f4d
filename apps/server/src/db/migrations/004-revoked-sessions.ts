// Signed-out sessions: a token's id (jti) stays here until the token would have expired anyway, so a
// logout ends that token on the server, in every process (read with the staff row, see auth.service.ts).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE revoked_sessions (
      jti text PRIMARY KEY,
      staff_id integer NOT NULL REFERENCES staff (id),
      expires_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX revoked_sessions_staff_idx ON revoked_sessions (staff_id, expires_at)`.execute(db);
}
