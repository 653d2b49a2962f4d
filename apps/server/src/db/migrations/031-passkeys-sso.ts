// Passkeys and single sign-on for staff (issue 34, items 2-4).
//
// A passkey (WebAuthn) is a public key the member's device keeps the private half of: the desk stores the credential's
// id, its public key (COSE), the signature counter and the transports, never anything that could sign. A member names
// each one and sees when it was last used.
//
// The step before a passkey or an OpenID Connect sign-in is a `sign_in_challenges` row too: for a passkey, the
// WebAuthn challenge the device must sign (on the second-factor row, or a row of its own for registration and for a
// sign-in with a passkey alone, whose member is not known until the device answers); for single sign-on, the row is
// keyed by the SHA-256 of the `state` and holds the PKCE verifier and the nonce for the few minutes until the provider
// sends the member back. Each is used once.
//
// The policy gains: whether a passkey alone may sign in (no password), the roles that must sign in through single
// sign-on (no password), and the e-mail domain whose people get a Team account at their first SSO sign-in (none by
// default: SSO then only signs in members who exist).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE staff_passkeys (
      id text PRIMARY KEY,
      staff_id integer NOT NULL REFERENCES staff(id) ON DELETE CASCADE,
      name text NOT NULL,
      public_key bytea NOT NULL,
      counter bigint NOT NULL DEFAULT 0,
      transports text[] NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX staff_passkeys_staff_idx ON staff_passkeys (staff_id)`.execute(db);

  await sql`ALTER TABLE sign_in_challenges ALTER COLUMN staff_id DROP NOT NULL`.execute(db);
  await sql`ALTER TABLE sign_in_challenges DROP CONSTRAINT sign_in_challenges_purpose_check`.execute(db);
  await sql`ALTER TABLE sign_in_challenges ADD CONSTRAINT sign_in_challenges_purpose_check
    CHECK (purpose IN ('second-factor', 'enrol', 'passkey', 'passkey-register', 'sso'))`.execute(db);
  await sql`ALTER TABLE sign_in_challenges
    ADD COLUMN webauthn_challenge text,
    ADD COLUMN code_verifier text,
    ADD COLUMN nonce text`.execute(db);
  // Rows without a member (a passkey alone, SSO) are cleared by age on the way in.
  await sql`CREATE INDEX sign_in_challenges_expires_idx ON sign_in_challenges (expires_at) WHERE staff_id IS NULL`.execute(
    db,
  );

  await sql`ALTER TABLE staff_sign_in_policy
    ADD COLUMN passwordless_passkeys boolean NOT NULL DEFAULT false,
    ADD COLUMN sso_roles text[] NOT NULL DEFAULT '{}',
    ADD COLUMN sso_create_domain text`.execute(db);
}
