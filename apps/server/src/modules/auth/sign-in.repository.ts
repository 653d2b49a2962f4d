// All SQL of staff sign-in beyond the password (issue 34): sessions, the TOTP factor, recovery codes, the challenge
// between the password and the code, and the sign-in policy. Every query is by primary key or by one member
// (staff_sessions_staff_idx), and a member has at most SESSIONS_KEPT sessions and ten recovery codes.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { StaffType } from '@eta/contracts';
import type { ChallengePurpose, DB } from '../../db/schema.js';

type Db = Kysely<DB> | Transaction<DB>;

/** Open sessions a member may hold; a sign-in beyond it ends the oldest (someone signing in from a script, say). */
export const MAX_OPEN_SESSIONS = 50;
/** Ended sessions kept per member (the newest), beside the open ones; the list shows the newest SESSIONS_KEPT of all. */
export const SESSIONS_KEPT = 100;

/**
 * Opens a session. On the way, the member's sessions that expired are marked so (the open ones stay few: the partial
 * index staff_sessions_open_idx), the oldest open ones beyond MAX_OPEN_SESSIONS end, and only the newest SESSIONS_KEPT
 * ended rows are kept: each statement reads at most a few hundred rows of one member, however often they sign in.
 */
export async function insertSession(
  db: Db,
  s: { id: string; staffId: number; expiresAt: Date; ip: string; userAgent: string; secondFactor: string | null },
): Promise<void> {
  await sql`UPDATE staff_sessions SET ended_at = expires_at, ended_by = 'expired'
    WHERE staff_id = ${s.staffId} AND ended_at IS NULL AND expires_at <= now()`.execute(db);
  await db
    .insertInto('staff_sessions')
    .values({
      id: s.id,
      staff_id: s.staffId,
      expires_at: s.expiresAt,
      ip: s.ip,
      user_agent: s.userAgent.slice(0, 500),
      second_factor: s.secondFactor,
    })
    .execute();
  await sql`UPDATE staff_sessions SET ended_at = now(), ended_by = 'too many sessions'
    WHERE id IN (SELECT id FROM staff_sessions WHERE staff_id = ${s.staffId} AND ended_at IS NULL
      ORDER BY created_at DESC OFFSET ${MAX_OPEN_SESSIONS})`.execute(db);
  await sql`DELETE FROM staff_sessions WHERE id IN (SELECT id FROM staff_sessions WHERE staff_id = ${s.staffId}
    AND ended_at IS NOT NULL ORDER BY created_at DESC OFFSET ${SESSIONS_KEPT})`.execute(db);
}

export const listSessions = (db: Db, staffId: number) =>
  db
    .selectFrom('staff_sessions')
    .select([
      'id',
      'created_at',
      'last_seen_at',
      'expires_at',
      'ended_at',
      'ended_by',
      'ip',
      'user_agent',
      'second_factor',
    ])
    .where('staff_id', '=', staffId)
    .orderBy('created_at', 'desc')
    .limit(SESSIONS_KEPT)
    .execute();

export const findSession = (db: Db, id: string) =>
  db.selectFrom('staff_sessions').selectAll().where('id', '=', id).executeTakeFirst();

/** Ends the member's open sessions (all, or all but `except`); returns how many ended. */
export async function endSessions(
  db: Db,
  staffId: number,
  endedBy: string,
  only: { id?: string; except?: string } = {},
): Promise<number> {
  let query = db
    .updateTable('staff_sessions')
    .set({ ended_at: new Date(), ended_by: endedBy })
    .where('staff_id', '=', staffId)
    .where('ended_at', 'is', null);
  if (only.id !== undefined) query = query.where('id', '=', only.id);
  if (only.except !== undefined) query = query.where('id', '<>', only.except);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export const touchSession = (db: Db, id: string) =>
  db.updateTable('staff_sessions').set({ last_seen_at: new Date() }).where('id', '=', id).execute();

export const markSessionProved = (db: Db, id: string) =>
  db.updateTable('staff_sessions').set({ proved_at: new Date() }).where('id', '=', id).execute();

// ---- TOTP ----

export const findTotp = (db: Db, staffId: number) =>
  db.selectFrom('staff_totp').selectAll().where('staff_id', '=', staffId).executeTakeFirst();

export async function savePendingTotp(db: Db, staffId: number, sealed: Buffer): Promise<void> {
  await db
    .insertInto('staff_totp')
    .values({ staff_id: staffId, pending_secret: sealed, pending_at: new Date() })
    .onConflict((oc) => oc.column('staff_id').doUpdateSet({ pending_secret: sealed, pending_at: new Date() }))
    .execute();
}

/** The pending secret becomes the factor; `step` is the step of the code that confirmed it. */
export const confirmTotp = (db: Db, staffId: number, step: number) =>
  db
    .updateTable('staff_totp')
    .set((eb) => ({
      secret: eb.ref('pending_secret'),
      confirmed_at: new Date(),
      last_step: String(step),
      pending_secret: null,
      pending_at: null,
    }))
    .where('staff_id', '=', staffId)
    .where('pending_secret', 'is not', null)
    .executeTakeFirst();

/** Takes a code's step: true only when it is later than every code accepted before (no code counts twice). */
export async function takeTotpStep(db: Db, staffId: number, step: number): Promise<boolean> {
  const row = await db
    .updateTable('staff_totp')
    .set({ last_step: String(step) })
    .where('staff_id', '=', staffId)
    .where('secret', 'is not', null)
    .where(sql<boolean>`last_step < ${step}`)
    .returning('staff_id')
    .executeTakeFirst();
  return row !== undefined;
}

export const deleteTotp = (db: Db, staffId: number) =>
  db.deleteFrom('staff_totp').where('staff_id', '=', staffId).execute();

export const deleteRecoveryCodes = (db: Db, staffId: number) =>
  db.deleteFrom('staff_recovery_codes').where('staff_id', '=', staffId).execute();

export async function deleteFactors(db: Db, staffId: number): Promise<void> {
  await db.deleteFrom('staff_totp').where('staff_id', '=', staffId).execute();
  await db.deleteFrom('staff_passkeys').where('staff_id', '=', staffId).execute();
  await db.deleteFrom('staff_recovery_codes').where('staff_id', '=', staffId).execute();
}

// ---- Recovery codes ----

export async function replaceRecoveryCodes(db: Db, staffId: number, hashes: readonly Buffer[]): Promise<void> {
  await db.deleteFrom('staff_recovery_codes').where('staff_id', '=', staffId).execute();
  await db
    .insertInto('staff_recovery_codes')
    .values(hashes.map((code_hash) => ({ staff_id: staffId, code_hash })))
    .execute();
}

/** Uses a recovery code: true only for an unused code of this member, once. */
export async function useRecoveryCode(db: Db, staffId: number, hash: Buffer): Promise<boolean> {
  const row = await db
    .updateTable('staff_recovery_codes')
    .set({ used_at: new Date() })
    .where('staff_id', '=', staffId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .returning('staff_id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function countUnusedRecoveryCodes(db: Db, staffId: number): Promise<number> {
  const row = await db
    .selectFrom('staff_recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('staff_id', '=', staffId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---- Challenges ----

export async function insertChallenge(
  db: Db,
  c: {
    id: string;
    staffId: number | null;
    purpose: ChallengePurpose;
    expiresAt: Date;
    webauthnChallenge?: string;
    codeVerifier?: string;
    nonce?: string;
  },
): Promise<void> {
  // Finished or expired challenges go on the way, so they never pile up: a member's own, or (for the rows without a
  // member) a few hundred of the expired ones at a time, through their partial index.
  if (c.staffId === null) {
    await sql`DELETE FROM sign_in_challenges WHERE id IN (SELECT id FROM sign_in_challenges
      WHERE staff_id IS NULL AND expires_at <= now() LIMIT 500)`.execute(db);
  } else {
    await db
      .deleteFrom('sign_in_challenges')
      .where('staff_id', '=', c.staffId)
      .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', new Date())]))
      .execute();
  }
  await db
    .insertInto('sign_in_challenges')
    .values({
      id: c.id,
      staff_id: c.staffId,
      purpose: c.purpose,
      expires_at: c.expiresAt,
      webauthn_challenge: c.webauthnChallenge ?? null,
      code_verifier: c.codeVerifier ?? null,
      nonce: c.nonce ?? null,
    })
    .execute();
}

/** An unused, unexpired challenge of `purpose`. */
export const findChallenge = (db: Db, id: string, purpose: ChallengePurpose) =>
  db
    .selectFrom('sign_in_challenges')
    .selectAll()
    .where('id', '=', id)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();

/** Gives an open second-factor challenge the WebAuthn challenge its passkey must sign. */
export const setWebauthnChallenge = (db: Db, id: string, webauthnChallenge: string) =>
  db
    .updateTable('sign_in_challenges')
    .set({ webauthn_challenge: webauthnChallenge })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .execute();

/** The member of an unused, unexpired challenge, with the challenge's purpose. */
export const findChallengeStaff = (db: Db, id: string) =>
  db
    .selectFrom('sign_in_challenges as c')
    .innerJoin('staff as s', 's.id', 'c.staff_id')
    .selectAll('s')
    .select(['c.purpose', 'c.webauthn_challenge'])
    .where('c.id', '=', id)
    .where('c.used_at', 'is', null)
    .where('c.expires_at', '>', new Date())
    .executeTakeFirst();

/** Uses a challenge: true once, for its first use before it expires. */
export async function useChallenge(db: Db, id: string): Promise<boolean> {
  const row = await db
    .updateTable('sign_in_challenges')
    .set({ used_at: new Date() })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

// ---- Policy ----

export const findSignInPolicy = (db: Db) =>
  db
    .selectFrom('staff_sign_in_policy')
    .select(['mfa_roles', 'passwordless_passkeys', 'sso_roles', 'sso_create_domain', 'updated_at', 'updated_by'])
    .executeTakeFirst();

export interface SavedPolicy {
  mfaRoles: readonly StaffType[];
  passwordlessPasskeys: boolean;
  ssoRoles: readonly StaffType[];
  ssoCreateDomain: string | null;
}

export async function saveSignInPolicy(db: Db, p: SavedPolicy, staffId: number): Promise<void> {
  const roles = (list: readonly StaffType[]) => sql<StaffType[]>`${sql.val([...list])}::text[]`;
  const values = {
    mfa_roles: roles(p.mfaRoles),
    passwordless_passkeys: p.passwordlessPasskeys,
    sso_roles: roles(p.ssoRoles),
    sso_create_domain: p.ssoCreateDomain,
    updated_by: staffId,
  };
  await db
    .insertInto('staff_sign_in_policy')
    .values({ id: 1, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet({ ...values, updated_at: new Date() }))
    .execute();
}

// ---- Passkeys ----

/** Passkeys a member may keep: a list short enough to read, more than anyone needs. */
export const MAX_PASSKEYS = 10;

export const listPasskeys = (db: Db, staffId: number) =>
  db
    .selectFrom('staff_passkeys')
    .selectAll()
    .where('staff_id', '=', staffId)
    .orderBy('created_at')
    .limit(MAX_PASSKEYS)
    .execute();

export const findPasskey = (db: Db, id: string) =>
  db.selectFrom('staff_passkeys').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertPasskey(
  db: Db,
  p: { id: string; staffId: number; name: string; publicKey: Uint8Array; counter: number; transports: string[] },
): Promise<void> {
  await db
    .insertInto('staff_passkeys')
    .values({
      id: p.id,
      staff_id: p.staffId,
      name: p.name,
      public_key: Buffer.from(p.publicKey),
      counter: String(p.counter),
      transports: sql<string[]>`${sql.val(p.transports)}::text[]`,
    })
    .execute();
}

/** Records a use: the device's new signature counter (a counter that went back means a cloned key). */
export const usePasskey = (db: Db, id: string, counter: number) =>
  db
    .updateTable('staff_passkeys')
    .set({ counter: String(counter), last_used_at: new Date() })
    .where('id', '=', id)
    .execute();

export async function deletePasskey(db: Db, staffId: number, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('staff_passkeys')
    .where('staff_id', '=', staffId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
