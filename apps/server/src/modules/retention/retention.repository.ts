// All SQL of retention (issue 24): erasing one order's personal data, the retention job's walk and its run rows,
// the files waiting to be deleted, the landing sites' policies and legal holds. Indexes: orders' primary key (the
// walk, in id order), orders_customer_sign_idx and documents_storage_key_idx (is a freed file named elsewhere?),
// disputes_order_idx, remarks/mails/downloads/documents (order_id, created_at), retention_runs_started_idx.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { MailState } from '@eta/contracts';
import type { DB } from '../../db/schema.js';
import { ERASED_SENSITIVE_COLUMNS } from '../personal-data/personal-fields.js';
import { ERASED_EVENT_PAYLOAD } from '../payments/payments.repository.js';

type Db = Kysely<DB> | Transaction<DB>;

/**
 * The other columns of an order that describe the person (besides ERASED_SENSITIVE_COLUMNS): names, addresses,
 * telephone, the representative, birth place, passport details, job, and the answers about refusals, arrests and
 * health. Kept: ids, amounts, dates, statuses, gateway and payment ids, landing site, legal version, citizenship
 * (the country report counts by it) and the travel date (what the erasure was dated from). ./README.md.
 */
export const ERASED_PERSONAL_COLUMNS = {
  applying_for_someone: null,
  applying_for_minor: null,
  representative_is: null,
  being_paid: null,
  membership_id: null,
  province_or_territory: null,
  surname: null,
  first_name: null,
  firm_or_organization: null,
  mailing_address: null,
  telephone_number: null,
  country_code: null,
  postal_code: null,
  fax_number: null,
  email_address: null,
  travel_document: null,
  country_on_passport: null,
  lawful_permanent_resident_of_us: null,
  uscis_exp_year: null,
  passport_surname: null,
  passport_first_name: null,
  gender: null,
  country_of_birth: null,
  city_of_birth: null,
  passport_issue_year: null,
  passport_issue_month: null,
  passport_issue_date: null,
  passport_exp_year: null,
  passport_exp_month: null,
  passport_exp_date: null,
  country: null,
  marital_status: null,
  appliedd_for_visa_before: null,
  occupation: null,
  job_title: null,
  employer_or_school_name: null,
  job_country: null,
  job_state: null,
  job_city: null,
  working_since: null,
  apartment_number: null,
  house_name: null,
  street_name: null,
  street_name_2: null,
  city: null,
  res_state: null,
  res_zip_code: null,
  district: null,
  travel_to_canada_hour: null,
  have_you_ever_been_refused_a_visa_or_permit: null,
  country_that_refused_you_a_visa_or_permit: null,
  have_you_ever_committed_been_arrested: null,
  please_indicate_where_committed_been_arrested: null,
  is_your_contact_with_tuberculosis: null,
  have_you_ever_been_diagnosed_with_tuberculosis: null,
  past_two_years_diagnosed_with_tuberculosis: null,
  have_one_of_these_conditions: null,
  additional_details: null,
  customer_sign: null,
  ip_address: null,
  customer_browser: null,
  customer_timezone: null,
} as const;

/** What a required text column of an erased row reads (a mail's recipient, a download's address, a file's name). */
export const ERASED_VALUE = '(erased)';

/** Why a mail still queued when its order was erased is never sent. */
const UNSENT_NOTE = "Not sent: the order's personal data was erased.";

/** What a staff remark of an erased order reads (staff may have written the customer's details into it). */
export const ERASED_REMARK = '(erased with the order’s personal data)';

/** The order as an erasure needs it, locked until the transaction ends. */
export const lockOrderForErasure = (trx: Transaction<DB>, orderKey: number) =>
  trx
    .selectFrom('orders')
    .select([
      'id',
      'order_id',
      'process_status',
      'landing_site',
      'erased_at',
      'legal_hold_at',
      'legal_hold_reason',
      'customer_sign',
    ])
    .where('id', '=', orderKey)
    .forUpdate()
    .executeTakeFirst();

/** The order's disputes not yet decided (won or lost): evidence may still be asked for. Index: disputes_order_idx. */
export const selectOpenDisputes = (db: Db, orderKeys: number[]) =>
  orderKeys.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('disputes')
        .select(['order_id', 'dispute_id', 'status'])
        .where('order_id', 'in', orderKeys)
        .where('outcome', 'is', null)
        .execute();

/** The order's document files still in the store. Index: documents_order_idx. */
export const selectDocumentKeys = (trx: Transaction<DB>, orderKey: number) =>
  trx
    .selectFrom('documents')
    .select('storage_key')
    .where('order_id', '=', orderKey)
    .where('file_erased_at', 'is', null)
    .execute();

/**
 * Erases one order's personal data in the caller's transaction: the order's personal columns, staff remarks' text,
 * mails' recipient and bodies (a queued mail is failed, never sent), downloads' address and browser string, the
 * documents' names (their files are deleted after commit). Returns the order's new version.
 */
export async function eraseOrderRows(trx: Transaction<DB>, orderKey: number, now: Date): Promise<number> {
  const { version } = await trx
    .updateTable('orders')
    .set({
      ...ERASED_SENSITIVE_COLUMNS,
      ...ERASED_PERSONAL_COLUMNS,
      email: '',
      erased_at: now,
      updated_at: now,
      version: sql<number>`version + 1`,
    })
    .where('id', '=', orderKey)
    .returning('version')
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('remarks')
    .set({ remark: ERASED_REMARK })
    .where('order_id', '=', orderKey)
    .where('staff_id', 'is not', null)
    .execute();
  await trx
    .updateTable('mails')
    .set({
      to_address: ERASED_VALUE,
      html: '',
      text: '',
      state: sql<MailState>`CASE WHEN state = 'queued' THEN 'failed' ELSE state END`,
      last_error: sql<string | null>`CASE WHEN state = 'queued' THEN ${UNSENT_NOTE}::text ELSE last_error END`,
      locked_until: null,
    })
    .where('order_id', '=', orderKey)
    .execute();
  await trx
    .updateTable('downloads')
    .set({ ip: ERASED_VALUE, user_agent: null, location: null, timezone: null })
    .where('order_id', '=', orderKey)
    .execute();
  await trx
    .updateTable('documents')
    .set({ file_erased_at: now, original_name: ERASED_VALUE })
    .where('order_id', '=', orderKey)
    .where('file_erased_at', 'is', null)
    .execute();
  // A gateway's webhook as it came may name the card holder and their e-mail (a Stripe charge's billing details):
  // the event's id, type, outcome and note stay, as the evidence trail of what the gateway said and what it did.
  await sql`UPDATE gateway_events SET payload = ${ERASED_EVENT_PAYLOAD}::jsonb WHERE order_id = ${orderKey}`.execute(
    trx,
  );
  return version;
}

/**
 * Of `keys`, those no order, document or invoice names any more (demo orders share one signature and one document,
 * so a file is deleted only with its last reference). Indexes: orders_customer_sign_idx, documents_storage_key_idx,
 * invoices' storage key is read by its (small) table. Mail attachments are invoices, which are kept.
 */
export async function selectUnreferencedKeys(trx: Transaction<DB>, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const { rows } = await sql<{ key: string }>`
    SELECT k.key FROM jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb) AS k(key)
    WHERE NOT EXISTS (SELECT 1 FROM orders WHERE customer_sign = k.key)
      AND NOT EXISTS (SELECT 1 FROM documents WHERE storage_key = k.key AND file_erased_at IS NULL)
      AND NOT EXISTS (SELECT 1 FROM invoices WHERE storage_key = k.key)`.execute(trx);
  return rows.map((r) => r.key);
}

export async function queueFileDeletions(trx: Transaction<DB>, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await trx
    .insertInto('retention_file_deletions')
    .values(keys.map((storage_key) => ({ storage_key })))
    .onConflict((oc) => oc.column('storage_key').doNothing())
    .execute();
}

/** Files freed by erasures and not yet deleted (a failure earlier, or a process killed after the commit). */
export const selectPendingFileDeletions = (db: Db, limit: number) =>
  db.selectFrom('retention_file_deletions').select('storage_key').orderBy('queued_at').limit(limit).execute();

export const forgetFileDeletion = (db: Db, key: string) =>
  db.deleteFrom('retention_file_deletions').where('storage_key', '=', key).execute();

export const recordFileDeletionFailure = (db: Db, key: string, error: string) =>
  db
    .updateTable('retention_file_deletions')
    .set({ attempts: sql<number>`attempts + 1`, last_error: error.slice(0, 500) })
    .where('storage_key', '=', key)
    .execute();

export interface Candidate {
  id: number;
  order_id: string;
  landing_site: string;
  held: boolean;
  disputed: boolean;
  due_from: string;
}

/** The date an order's retention is counted from: its travel date, or its order date when no travel date is known. */
const dueFrom = sql<string>`coalesce(o.travel_to_canada_year::timestamp, o.created_at AT TIME ZONE 'UTC')`;

/**
 * The next orders past their site's retention date after `afterKey`, in id order (the primary key's walk), with
 * whether a legal hold or an open dispute keeps them. "Past" is judged against the run's cutoff: months after the
 * travel date, or after the order date when no travel date is known.
 */
export async function selectDueOrders(db: Db, afterKey: number, cutoff: Date, limit: number): Promise<Candidate[]> {
  const { rows } = await sql<Candidate>`
    SELECT o.id::int AS id, o.order_id, o.landing_site,
      o.legal_hold_at IS NOT NULL AS held,
      EXISTS (SELECT 1 FROM disputes d WHERE d.order_id = o.id AND d.outcome IS NULL) AS disputed,
      to_char(${dueFrom}, 'YYYY-MM-DD') AS due_from
    FROM orders o JOIN landing_sites s ON s.key = o.landing_site
    WHERE o.id > ${afterKey} AND o.erased_at IS NULL
      AND ${dueFrom} + make_interval(months => s.personal_data_retention_months)
          <= (${cutoff}::timestamptz AT TIME ZONE 'UTC')
    ORDER BY o.id
    LIMIT ${limit}`.execute(db);
  return rows;
}

/**
 * Orders a run erased past its recorded progress: those of the batch its process was in when it died (each erasure
 * commits on its own, the batch's progress after them all). Their erasures' audit rows name the run. Index:
 * audit_log_action_idx (action, at) from the run's start.
 */
export async function selectErasedPastProgress(
  db: Db,
  run: { id: number; last_order_key: number; started_at: Date | string },
): Promise<Candidate[]> {
  const { rows } = await sql<Candidate>`
    SELECT o.id::int AS id, o.order_id, o.landing_site, false AS held, false AS disputed,
      to_char(${dueFrom}, 'YYYY-MM-DD') AS due_from
    FROM audit_log a JOIN orders o ON o.id = a.order_id
    WHERE a.action = 'order.erase' AND a.at >= ${run.started_at}::timestamptz
      AND a.order_id > ${run.last_order_key} AND a.after->>'run' = ${String(run.id)}
    ORDER BY o.id`.execute(db);
  return rows;
}

// Runs.

export const RUN_COLUMNS = [
  'id',
  'dry_run',
  'trigger',
  'started_by_name',
  'started_at',
  'cutoff_at',
  'heartbeat_at',
  'finished_at',
  'state',
  'last_order_key',
  'erased',
  'skipped',
  'files_deleted',
  'file_failures',
  'resumed',
  'report',
  'error',
] as const;

export const insertRun = (
  db: Db,
  run: {
    dryRun: boolean;
    trigger: 'daily' | 'manual';
    startedBy: number | null;
    startedByName: string | null;
    cutoff: Date;
  },
) =>
  db
    .insertInto('retention_runs')
    .values({
      dry_run: run.dryRun,
      trigger: run.trigger,
      started_by: run.startedBy,
      started_by_name: run.startedByName,
      cutoff_at: run.cutoff,
    })
    .returning(RUN_COLUMNS)
    .executeTakeFirstOrThrow();

/** The erasing run still marked running, if any (at most one: retention_runs_one_running). */
export const selectRunningRun = (db: Db) =>
  db
    .selectFrom('retention_runs')
    .select(RUN_COLUMNS)
    .where('state', '=', 'running')
    .where('dry_run', '=', false)
    .executeTakeFirst();

/**
 * A run's claim: the process that inserted it, or last took it over, owns it while its `resumed` is still the one it
 * claimed with. Every write of progress checks that, so a process that was taken for dead (a long pause) and wakes
 * up writes nothing and stops. Heartbeats and staleness are judged by the database's clock, one for all servers.
 */
export interface RunClaim {
  id: number;
  resumed: number;
}

const beforeSeconds = (ms: number) => sql<Date>`now() - make_interval(secs => ${ms / 1000})`;

/**
 * Takes over a running run whose process stopped beating for `staleAfterMs` (killed, crashed): only one process
 * wins, the one whose update finds the old heartbeat still there; its claim is the run's next `resumed`.
 */
export const claimStaleRun = (db: Db, id: number, staleAfterMs: number) =>
  db
    .updateTable('retention_runs')
    .set({ heartbeat_at: sql<Date>`now()`, resumed: sql<number>`resumed + 1` })
    .where('id', '=', id)
    .where('state', '=', 'running')
    .where('heartbeat_at', '<', beforeSeconds(staleAfterMs))
    .returning(RUN_COLUMNS)
    .executeTakeFirst();

/** Whether this claim still holds the run, locked against a takeover until the transaction ends. */
export async function lockRunClaim(trx: Transaction<DB>, claim: RunClaim): Promise<boolean> {
  const row = await trx
    .selectFrom('retention_runs')
    .select('id')
    .where('id', '=', claim.id)
    .where('state', '=', 'running')
    .where('resumed', '=', claim.resumed)
    .forShare()
    .executeTakeFirst();
  return row !== undefined;
}

/** The run's heartbeat, while this claim holds it. */
export const beat = (db: Db, claim: RunClaim) =>
  db
    .updateTable('retention_runs')
    .set({ heartbeat_at: sql<Date>`now()` })
    .where('id', '=', claim.id)
    .where('state', '=', 'running')
    .where('resumed', '=', claim.resumed)
    .execute();

/** The day's daily run, erasing, if one started on that UTC day. Index: retention_runs_started_idx. */
export const selectDailyRunSince = (db: Db, since: Date) =>
  db
    .selectFrom('retention_runs')
    .select('id')
    .where('started_at', '>=', since)
    .where('trigger', '=', 'daily')
    .where('dry_run', '=', false)
    .executeTakeFirst();

/** Records a batch's progress (and beats); false when another process has taken the run over. */
export async function recordProgress(
  db: Db,
  claim: RunClaim,
  p: {
    lastOrderKey: number;
    erased: number;
    skipped: number;
    filesDeleted: number;
    fileFailures: number;
    report: unknown;
  },
): Promise<boolean> {
  const { numUpdatedRows } = await db
    .updateTable('retention_runs')
    .set({
      heartbeat_at: sql<Date>`now()`,
      last_order_key: p.lastOrderKey,
      erased: sql<number>`erased + ${p.erased}`,
      skipped: sql<number>`skipped + ${p.skipped}`,
      files_deleted: sql<number>`files_deleted + ${p.filesDeleted}`,
      file_failures: sql<number>`file_failures + ${p.fileFailures}`,
      report: JSON.stringify(p.report),
    })
    .where('id', '=', claim.id)
    .where('state', '=', 'running')
    .where('resumed', '=', claim.resumed)
    .executeTakeFirst();
  return numUpdatedRows > 0n;
}

/** Dry runs whose process ended before they did (they are never continued): marked failed, with why. */
export const failStaleDryRuns = (db: Db, staleAfterMs: number) =>
  db
    .updateTable('retention_runs')
    .set({ state: 'failed', finished_at: new Date(), error: 'Stopped: its server process ended before the run did.' })
    .where('state', '=', 'running')
    .where('dry_run', '=', true)
    .where('heartbeat_at', '<', beforeSeconds(staleAfterMs))
    .execute();

/** A run this process stops on shutdown: its heartbeat is put back so another process continues it at once. */
export const handOverRun = (db: Db, claim: RunClaim) =>
  db
    .updateTable('retention_runs')
    .set({ heartbeat_at: new Date(0) })
    .where('id', '=', claim.id)
    .where('state', '=', 'running')
    .where('resumed', '=', claim.resumed)
    .execute();

/** Ends the run while this claim holds it; undefined when another process has taken it over. */
export const finishRun = (
  db: Db,
  claim: RunClaim,
  end: { state: 'finished' | 'failed'; report?: unknown; error?: string | null },
) =>
  db
    .updateTable('retention_runs')
    .set({
      state: end.state,
      finished_at: sql<Date>`now()`,
      heartbeat_at: sql<Date>`now()`,
      report: end.report === undefined ? null : JSON.stringify(end.report),
      error: end.error ?? null,
    })
    .where('id', '=', claim.id)
    .where('state', '=', 'running')
    .where('resumed', '=', claim.resumed)
    .returning(RUN_COLUMNS)
    .executeTakeFirst();

export const selectRun = (db: Db, id: number) =>
  db.selectFrom('retention_runs').select(RUN_COLUMNS).where('id', '=', id).executeTakeFirst();

export type RunRow = NonNullable<Awaited<ReturnType<typeof selectRun>>>;

/** PostgreSQL's unique_violation: another process inserted the running run a moment before. */
export const isUniqueViolation = (err: unknown): boolean =>
  typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';

/** The newest runs first. Index: retention_runs_started_idx. */
export const selectRecentRuns = (db: Db, limit: number) =>
  db
    .selectFrom('retention_runs')
    .select(RUN_COLUMNS)
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();

// Policies and holds.

export const selectPolicies = (db: Db) =>
  db
    .selectFrom('landing_sites')
    .select(['key', 'display_name', 'personal_data_retention_months'])
    .orderBy('key')
    .execute();

export const lockPolicy = (trx: Transaction<DB>, key: string) =>
  trx
    .selectFrom('landing_sites')
    .select(['key', 'personal_data_retention_months'])
    .where('key', '=', key)
    .forUpdate()
    .executeTakeFirst();

export const updatePolicy = (trx: Transaction<DB>, key: string, months: number) =>
  trx.updateTable('landing_sites').set({ personal_data_retention_months: months }).where('key', '=', key).execute();

export const lockOrderForHold = (trx: Transaction<DB>, orderId: string) =>
  trx
    .selectFrom('orders')
    .select(['id', 'order_id', 'erased_at', 'legal_hold_at', 'legal_hold_reason', 'legal_hold_by_name'])
    .where('order_id', '=', orderId)
    .forUpdate()
    .executeTakeFirst();

export const setLegalHold = (
  trx: Transaction<DB>,
  orderKey: number,
  hold: { at: Date; by: number; byName: string; reason: string } | null,
) =>
  trx
    .updateTable('orders')
    .set({
      legal_hold_at: hold?.at ?? null,
      legal_hold_by: hold?.by ?? null,
      legal_hold_by_name: hold?.byName ?? null,
      legal_hold_reason: hold?.reason ?? null,
    })
    .where('id', '=', orderKey)
    .execute();
