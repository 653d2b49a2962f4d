// Staff sign-in that holds against a stolen password (issue 34): sessions a person can see and end, two-factor codes
// (TOTP) with single-use recovery codes, and the short-lived challenge between the password and the code.
//
// A session is a row: the token's jti, who, from where, when it was signed in and last seen, and when its owner last
// proved who they are (the password or a second factor), which the calls that take an account over ask for. A token
// counts only while its row is open, so ending a row ends the token in every process (the staff row's cache is
// dropped by an 'eta_staff' event). Tokens issued before this migration have no row: their holders sign in again.
//
// A TOTP secret is personal data of the member: sealed under the 'staff' data key (wrapped by the master key, like the
// orders' keys), never returned after enrolment. `last_step` is the 30-second step of the last code accepted, so no
// code is accepted twice. Recovery codes are kept as SHA-256 hashes: each is 80 random bits, so a hash cannot be
// reversed by trying codes, and checking ten of them costs nothing (unlike a password's argon2id).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE data_keys DROP CONSTRAINT data_keys_kind_check`.execute(db);
  await sql`ALTER TABLE data_keys ADD CONSTRAINT data_keys_kind_check
    CHECK (kind IN ('order', 'document', 'search', 'staff'))`.execute(db);

  await sql`
    CREATE TABLE staff_sessions (
      id text PRIMARY KEY,
      staff_id integer NOT NULL REFERENCES staff(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_seen_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      ended_at timestamptz,
      ended_by text,
      ip text NOT NULL,
      user_agent text NOT NULL DEFAULT '',
      second_factor text,
      proved_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX staff_sessions_staff_idx ON staff_sessions (staff_id, created_at DESC)`.execute(db);
  // The open sessions of a member, read with the staff row on every session check (at most MAX_OPEN_SESSIONS).
  await sql`CREATE INDEX staff_sessions_open_idx ON staff_sessions (staff_id, created_at DESC) WHERE ended_at IS NULL`.execute(
    db,
  );

  await sql`
    CREATE TABLE staff_totp (
      staff_id integer PRIMARY KEY REFERENCES staff(id) ON DELETE CASCADE,
      secret bytea,
      confirmed_at timestamptz,
      last_step bigint NOT NULL DEFAULT 0,
      pending_secret bytea,
      pending_at timestamptz
    )`.execute(db);

  await sql`
    CREATE TABLE staff_recovery_codes (
      staff_id integer NOT NULL REFERENCES staff(id) ON DELETE CASCADE,
      code_hash bytea NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      used_at timestamptz,
      PRIMARY KEY (staff_id, code_hash)
    )`.execute(db);

  // The step between a right password and the second factor: single use, a few minutes, bound to the member.
  await sql`
    CREATE TABLE sign_in_challenges (
      id text PRIMARY KEY,
      staff_id integer NOT NULL REFERENCES staff(id) ON DELETE CASCADE,
      purpose text NOT NULL CHECK (purpose IN ('second-factor', 'enrol')),
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX sign_in_challenges_staff_idx ON sign_in_challenges (staff_id)`.execute(db);

  // Which roles must use a second factor, once an Admin has said so; until then STAFF_MFA_ROLES decides.
  await sql`
    CREATE TABLE staff_sign_in_policy (
      id integer PRIMARY KEY CHECK (id = 1),
      mfa_roles text[] NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      updated_by integer REFERENCES staff(id) ON DELETE SET NULL
    )`.execute(db);
}
