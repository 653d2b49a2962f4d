// Kysely's view of the database (migrations/ are the truth; this mirrors them for type checking).
import type { ColumnType, Generated, GeneratedAlways, Insertable, Selectable, Updateable } from 'kysely';
import type {
  AccessKind,
  MailKind,
  MailProvider,
  MailState,
  PaymentStatus,
  ProcessingType,
  ProcessStatus,
  StaffType,
} from '@eta/contracts';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
/** `date` columns travel as 'YYYY-MM-DD' strings (type parser 1082 set on both drivers). */
type DateOnly = string;
/** An order's sealed fields (migration 021): field name to base64 of its AES-256-GCM ciphertext. */
export type SealedFields = Record<string, string>;

export interface LandingSitesTable {
  key: string;
  display_name: string;
  logo_url: string;
  menu_links: ColumnType<{ label: string; url: string }[], string, string>;
  footer_contact: string;
  mail_sender: string;
  support_phone: string | null;
  /** Where this site's customer portal (/track-order) lives; null: the server's PUBLIC_URL. */
  portal_url: string | null;
  /** Months after the travel date (else the order date) that an order's personal data is kept (migration 023). */
  personal_data_retention_months: Generated<number>;
  /** Bumped by every change of the site's branding or logo: edits are optimistic, as orders' (migration 027). */
  version: Generated<number>;
  /** An uploaded logo (migration 027): its document-store key, type (by content) and sha256; all null or none. */
  logo_key: string | null;
  logo_content_type: 'image/png' | 'image/jpeg' | null;
  logo_sha256: string | null;
  created_at: CreatedAt;
}

export interface StaffTable {
  id: Generated<number>;
  name: string;
  email: string;
  password_hash: string;
  type: StaffType;
  active: Generated<boolean>;
  created_at: CreatedAt;
  password_changed_at: Timestamp;
}

export interface GatewaysTable {
  id: Generated<number>;
  gateway_name: string;
  is_active: Generated<boolean>;
  created_at: CreatedAt;
  /** The last webhook that reached this gateway's endpoint, and whether its signature held (migration 016). */
  last_webhook_at: Date | null;
  last_webhook_verified: boolean | null;
  last_error: string | null;
  last_error_at: Date | null;
}

export interface OrdersTable {
  id: Generated<number>;
  order_id: string;
  email: string;
  landing_site: string;
  payment_status: ColumnType<PaymentStatus, PaymentStatus | undefined, PaymentStatus>;
  process_status: ColumnType<ProcessStatus, ProcessStatus | undefined, ProcessStatus>;
  processing_type: ColumnType<ProcessingType, ProcessingType | undefined, ProcessingType>;
  processing_date: DateOnly | null;
  /** A Future order whose processing date has come, marked (migration 036): marked means due, not the reverse. */
  future_due: Generated<boolean>;
  /** The text a search reads: order id, names, e-mail and telephone, lower-cased; PostgreSQL keeps it (migration 037). */
  search_text: GeneratedAlways<string>;
  assign_to: number | null;
  assign_date: Date | null;
  refund_date: Date | null;
  amount_cents: Generated<number>;
  currency: Generated<string>;
  gateway_id: number | null;
  transaction_id: string | null;
  merchant_name: string | null;

  applying_for_someone: boolean | null;
  applying_for_minor: boolean | null;
  representative_is: string | null;
  being_paid: boolean | null;
  membership_id: string | null;
  province_or_territory: string | null;
  surname: string | null;
  first_name: string | null;
  firm_or_organization: string | null;
  mailing_address: string | null;
  telephone_number: string | null;
  country_code: string | null;
  postal_code: string | null;
  fax_number: string | null;
  email_address: string | null;

  travel_document: string | null;
  country_on_passport: string | null;
  taiwan_personal_identification_number: string | null;
  confirm_taiwan_personal_identification_number: string | null;
  lawful_permanent_resident_of_us: boolean | null;
  uscis_number: string | null;
  confirm_uscis_number: string | null;
  uscis_exp_year: number | null;
  citizen_country: string | null;

  passport_number: string | null;
  confirm_passport_number: string | null;
  passport_surname: string | null;
  passport_first_name: string | null;
  birth_year: number | null;
  birth_month: number | null;
  birth_date: number | null;
  gender: string | null;
  country_of_birth: string | null;
  city_of_birth: string | null;
  passport_issue_year: number | null;
  passport_issue_month: number | null;
  passport_issue_date: number | null;
  passport_exp_year: number | null;
  passport_exp_month: number | null;
  passport_exp_date: number | null;

  country: string | null;
  marital_status: string | null;
  appliedd_for_visa_before: boolean | null;
  uci_number: string | null;
  confirm_uci_number: string | null;

  occupation: string | null;
  job_title: string | null;
  employer_or_school_name: string | null;
  job_country: string | null;
  job_state: string | null;
  job_city: string | null;
  working_since: number | null;

  preferred_language: string | null;
  apartment_number: string | null;
  house_name: string | null;
  street_name: string | null;
  street_name_2: string | null;
  city: string | null;
  res_state: string | null;
  res_zip_code: string | null;
  district: string | null;

  do_you_know_when_travel_to_canada: boolean | null;
  travel_to_canada_year: DateOnly | null;
  travel_to_canada_hour: string | null;

  have_you_ever_been_refused_a_visa_or_permit: boolean | null;
  country_that_refused_you_a_visa_or_permit: string | null;
  have_you_ever_committed_been_arrested: boolean | null;
  please_indicate_where_committed_been_arrested: string | null;
  is_your_contact_with_tuberculosis: boolean | null;
  have_you_ever_been_diagnosed_with_tuberculosis: boolean | null;
  past_two_years_diagnosed_with_tuberculosis: boolean | null;
  have_one_of_these_conditions: boolean | null;
  additional_details: string | null;

  customer_sign: string | null;
  customer_date: Date | null;
  ip_address: string | null;
  customer_browser: string | null;
  customer_timezone: string | null;

  /** Who moved the order to Completed last, and when (migration 007): the Processed By report. */
  processed_by: number | null;
  processed_at: Date | null;
  /** The version of the landing site's legal texts the customer agreed to (migration 014). */
  legal_version: Generated<number>;
  /** The intake key that brought the order in; null for orders from elsewhere (demo data, imports before 014). */
  intake_key_id: string | null;
  /** Payments (migration 016): Stripe's charge id beside the PaymentIntent id in transaction_id. */
  charge_id: string | null;
  /** When the gateway confirmed the payment; null: taken as the landing site said (or demo data). */
  payment_verified_at: Date | null;
  /** When a payment the gateway could not be asked about is checked again; null when none is waiting. */
  payment_check_due_at: Date | null;
  payment_check_attempts: Generated<number>;
  refund_id: string | null;
  /** The open dispute's evidence due date: the ChargeBack queue is worked soonest due first. */
  dispute_due_at: Date | null;
  /**
   * The sensitive fields (personal-data/personal-fields.ts), each sealed under the 'order' data key (migration 021);
   * their clear columns are null. Null for an order stored before encryption that is not yet encrypted.
   */
  personal_sealed: ColumnType<SealedFields | null, SealedFields | null | undefined, SealedFields | null>;
  /** HMAC-SHA256 of the normalized passport number under the 'search' key: exact search (orders_passport_hmac_idx). */
  passport_number_hmac: ColumnType<Buffer | null, Buffer | string | null | undefined, Buffer | string | null>;
  /** Retention (migration 023): when the personal data was erased, and an Admin's legal hold that prevents it. */
  erased_at: Date | null;
  legal_hold_at: Date | null;
  legal_hold_by: number | null;
  legal_hold_by_name: string | null;
  legal_hold_reason: string | null;

  /** When the order took its current status (migration 033: a trigger sets it; null for older rows: created_at). */
  status_changed_at: ColumnType<Date | null, Date | undefined, Date>;

  created_at: Timestamp;
  updated_at: Timestamp;
  version: Generated<number>;
}

/** Target time per processing type (migration 033): open orders waiting longer are "waiting too long". */
export interface ProcessingTargetsTable {
  processing_type: ProcessingType;
  target_minutes: number | null;
  updated_at: Timestamp;
  updated_by: number | null;
}

/** A member's choices on the queue screens (migration 033): the queues they sort urgent first. */
export interface StaffListPreferencesTable {
  staff_id: number;
  urgent_first_queues: string[];
  updated_at: Timestamp;
}

export interface RemarksTable {
  id: Generated<number>;
  order_id: number;
  staff_id: number | null;
  remark_name: string;
  remark: string;
  whatsapp: Generated<boolean>;
  telephone: Generated<boolean>;
  status_refund: Generated<boolean>;
  voided: Generated<boolean>;
  chargeback: Generated<boolean>;
  report_error: Generated<boolean>;
  created_at: Timestamp;
}

export interface DocumentsTable {
  id: Generated<number>;
  order_id: number;
  storage_key: string;
  original_name: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  uploaded_by: number | null;
  created_at: Timestamp;
  /** When retention deleted the file (migration 023); the row stays as the record of what was delivered. */
  file_erased_at: Date | null;
  /** The approval's own facts, as read from it (migration 032; null when not found or uploaded before). */
  application_number: string | null;
  approved_on: ColumnType<string | null, string | null | undefined, string | null>;
  expires_on: ColumnType<string | null, string | null | undefined, string | null>;
  /** How it was read (DocumentReading in the contracts). */
  reading: ColumnType<unknown, string | null | undefined, string | null>;
}

export interface MailsTable {
  id: Generated<number>;
  order_id: number | null;
  kind: MailKind;
  to_address: string;
  subject: string;
  html: string;
  text: string;
  provider: MailProvider;
  state: Generated<MailState>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  last_error: string | null;
  provider_message_id: string | null;
  document_id: number | null;
  created_at: Timestamp;
  sent_at: Date | null;
  /** The claiming worker's lease; the row is due again after it. */
  locked_until: Date | null;
  from_address: string | null;
  attachments: ColumnType<MailAttachment[], string | undefined, string>;
  /** The row's own key, carried by every attempt to the provider (migration 018). */
  message_key: Generated<string>;
  /** When an attempt whose outcome is not recorded yet began: set by a claim, cleared by the outcome. */
  sending_since: Date | null;
  /** The server whose worker made the last claim, the same across its restarts (migration 026). */
  claimed_by: string | null;
  /** That server's start which made the claim: a later start of the same server takes back its claims at once. */
  claim_boot: string | null;
}

/** A file a mail carries: its bytes stay in the document store under storageKey. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  storageKey: string;
}

export interface DownloadsTable {
  id: Generated<number>;
  order_id: number;
  document_id: number | null;
  created_at: Timestamp;
  ip: string;
  user_agent: string | null;
  browser: string | null;
  os: string | null;
  device: string | null;
  device_type: string | null;
  location: string | null;
  timezone: string | null;
}

export interface InvoiceCountersTable {
  year: number;
  last_number: number;
}

export interface InvoicesTable {
  id: Generated<number>;
  invoice_number: string;
  order_id: number;
  amount_cents: number;
  currency: string;
  storage_key: string;
  sha256: string;
  created_by: number | null;
  created_at: Timestamp;
}

export interface RevokedSessionsTable {
  jti: string;
  staff_id: number;
  expires_at: Date;
}

/** A staff member's signed-in session (migration 030): its token counts only while the row is open. */
export interface StaffSessionsTable {
  /** The token's jti. */
  id: string;
  staff_id: number;
  created_at: CreatedAt;
  last_seen_at: Timestamp;
  expires_at: Date;
  ended_at: Date | null;
  /** Who ended it, in words ('signed out', 'ended by Jane Admin', 'password changed' …). */
  ended_by: string | null;
  ip: string;
  user_agent: Generated<string>;
  /** 'totp' or 'recovery' when the sign-in gave a second factor; null for a password alone. */
  second_factor: string | null;
  /** When the member last gave their password or a second factor in this session (a recent proof). */
  proved_at: Timestamp;
}

/** A member's TOTP factor (migration 030): secrets sealed under the 'staff' data key. */
export interface StaffTotpTable {
  staff_id: number;
  secret: Buffer | null;
  confirmed_at: Date | null;
  /** The 30-second step of the last code accepted: no code is accepted twice. */
  last_step: Generated<string>;
  pending_secret: Buffer | null;
  pending_at: Date | null;
}

export interface StaffRecoveryCodesTable {
  staff_id: number;
  code_hash: Buffer;
  created_at: CreatedAt;
  used_at: Date | null;
}

export type ChallengePurpose = 'second-factor' | 'enrol' | 'passkey' | 'passkey-register' | 'sso';

/** The step between a sign-in's first part and its end (migrations 030, 031): single use, a few minutes. */
export interface SignInChallengesTable {
  id: string;
  /** Null until the member is known: a sign-in with a passkey alone, or single sign-on. */
  staff_id: number | null;
  purpose: ChallengePurpose;
  created_at: CreatedAt;
  expires_at: Date;
  used_at: Date | null;
  /** The WebAuthn challenge a passkey must sign. */
  webauthn_challenge: string | null;
  /** Single sign-on: the PKCE verifier and the nonce the provider's answer must carry. */
  code_verifier: string | null;
  nonce: string | null;
}

/** A member's passkey (migration 031): the public half only. */
export interface StaffPasskeysTable {
  /** The credential id, base64url. */
  id: string;
  staff_id: number;
  name: string;
  public_key: Buffer;
  counter: Generated<string>;
  transports: Generated<string[]>;
  created_at: CreatedAt;
  last_used_at: Date | null;
}

export interface StaffSignInPolicyTable {
  id: number;
  mfa_roles: StaffType[];
  passwordless_passkeys: Generated<boolean>;
  sso_roles: Generated<StaffType[]>;
  sso_create_domain: string | null;
  updated_at: Timestamp;
  updated_by: number | null;
}

/** The limits' counters shared by all processes (migration 020); times are epoch milliseconds. */
export interface LimitCountersTable {
  key: string;
  count: number;
  reset_at: number;
  not_before: number;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: CreatedAt;
  actor_id: number | null;
  actor_name: string | null;
  action: string;
  order_id: number | null;
  target: string | null;
  before: ColumnType<unknown, string | null, never>;
  after: ColumnType<unknown, string | null, never>;
  ip: string | null;
}

export interface OrderCountersTable {
  process_status: ProcessStatus;
  processing_type: ProcessingType;
  assign_to: number;
  processing_date: DateOnly;
  /** Which connection's share (1-16), 0 once folded (migration 015); a count is the sum over stripes. */
  stripe: Generated<number>;
  n: number;
}

/** Paid orders per UTC day created, citizen country ('' = not given) and processing type (migration 007). */
export interface OrderReportCountsTable {
  day: DateOnly;
  citizen_country: string;
  processing_type: ProcessingType;
  stripe: Generated<number>;
  n: number;
}

/** Orders moved to Completed per UTC day and staff member (migration 007). */
export interface ProcessedReportCountsTable {
  day: DateOnly;
  staff_id: number;
  n: number;
}

/** A landing site's disclaimer and fee text, one row per saved version, never changed (migration 014). */
export interface LegalTextsTable {
  landing_site: string;
  version: number;
  disclaimer: string;
  fee_text: string;
  created_by: number | null;
  created_by_name: string | null;
  created_at: CreatedAt;
}

/** A landing site's intake API key: its public id and the SHA-256 of its secret part (migration 014). */
export interface IntakeKeysTable {
  id: string;
  landing_site: string;
  secret_sha256: Buffer;
  created_by: number | null;
  created_at: CreatedAt;
  last_used_at: Date | null;
  /** A rotated key works until then; null while it is current. */
  retires_at: Date | null;
}

/** An Idempotency-Key of a landing site and the order its first request made (migration 014). */
export interface IntakeRequestsTable {
  landing_site: string;
  idempotency_key: string;
  body_sha256: Buffer;
  order_id: number;
  /** What the first answer said of the payment (migration 017), given again to a retry. */
  payment: ColumnType<unknown, string | null, never>;
  created_at: CreatedAt;
}

/** A verified webhook, stored once by its id (migration 016). */
export interface GatewayEventsTable {
  id: Generated<number>;
  gateway_id: number;
  event_id: string;
  type: string;
  received_at: CreatedAt;
  payload: ColumnType<unknown, string, never>;
  order_id: number | null;
  outcome: 'applied' | 'ignored' | 'unmatched';
  note: Generated<string>;
}

/** A chargeback as its gateway reports it (migration 016). */
export interface DisputesTable {
  id: Generated<number>;
  order_id: number;
  gateway_id: number;
  dispute_id: string;
  reason: string;
  amount_cents: number;
  currency: string;
  status: string;
  evidence_due_by: Date | null;
  outcome: 'won' | 'lost' | null;
  outcome_at: Date | null;
  evidence_state: 'draft' | 'submitted' | null;
  evidence_pack_type: number | null;
  evidence_by: number | null;
  evidence_at: Date | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface DisputeHistoryTable {
  id: Generated<number>;
  dispute_id: number;
  at: CreatedAt;
  status: string;
  outcome: string | null;
  by_name: string;
  note: string;
}

/** One run of the retention job, erasing or dry (migration 023): its progress, counts and report. */
export interface RetentionRunsTable {
  id: Generated<number>;
  dry_run: boolean;
  trigger: 'daily' | 'manual';
  started_by: number | null;
  started_by_name: string | null;
  started_at: CreatedAt;
  cutoff_at: Date;
  heartbeat_at: Timestamp;
  finished_at: Date | null;
  state: ColumnType<'running' | 'finished' | 'failed', 'running' | undefined, 'running' | 'finished' | 'failed'>;
  last_order_key: Generated<number>;
  erased: Generated<number>;
  skipped: Generated<number>;
  files_deleted: Generated<number>;
  file_failures: Generated<number>;
  resumed: Generated<number>;
  report: ColumnType<unknown, string | null | undefined, string | null>;
  error: string | null;
}

/** A document an erasure freed, until the store has deleted it (migration 023). */
export interface RetentionFileDeletionsTable {
  storage_key: string;
  queued_at: CreatedAt;
  attempts: Generated<number>;
  last_error: string | null;
}

/** One read of personal data (migration 022): who, what, when, from where. Append-only. */
export interface AccessRecordsTable {
  id: Generated<number>;
  at: ColumnType<Date, Date, never>;
  staff_id: number;
  staff_name: string;
  order_id: number | null;
  kind: AccessKind;
  detail: string | null;
  ip: string;
  user_agent: string | null;
  browser: string;
  os: string;
  device: string;
  device_type: string;
}

/** An unusual reading pattern found when reads were written (migration 022), until an Admin acknowledges it. */
export interface AccessAlertsTable {
  id: Generated<number>;
  staff_id: number;
  staff_name: string;
  window_start: Date;
  window_end: Date;
  order_count: number;
  raised_at: CreatedAt;
  acknowledged_at: Date | null;
  acknowledged_by_id: number | null;
  acknowledged_by_name: string | null;
}

/** Data keys wrapped by the master key (migration 021). */
export interface DataKeysTable {
  id: Generated<number>;
  kind: 'order' | 'document' | 'search' | 'staff';
  wrapped: Buffer;
  /** The fingerprint of the master key that wrapped it (lib/crypto/master-key.ts). */
  master_fingerprint: string;
  created_at: CreatedAt;
  rewrapped_at: Date | null;
}

export interface DB {
  landing_sites: LandingSitesTable;
  staff: StaffTable;
  gateways: GatewaysTable;
  orders: OrdersTable;
  remarks: RemarksTable;
  processing_targets: ProcessingTargetsTable;
  staff_list_preferences: StaffListPreferencesTable;
  documents: DocumentsTable;
  mails: MailsTable;
  downloads: DownloadsTable;
  audit_log: AuditLogTable;
  revoked_sessions: RevokedSessionsTable;
  staff_sessions: StaffSessionsTable;
  staff_totp: StaffTotpTable;
  staff_recovery_codes: StaffRecoveryCodesTable;
  sign_in_challenges: SignInChallengesTable;
  staff_passkeys: StaffPasskeysTable;
  staff_sign_in_policy: StaffSignInPolicyTable;
  limit_counters: LimitCountersTable;
  invoice_counters: InvoiceCountersTable;
  invoices: InvoicesTable;
  order_counters: OrderCountersTable;
  order_report_counts: OrderReportCountsTable;
  processed_report_counts: ProcessedReportCountsTable;
  legal_texts: LegalTextsTable;
  intake_keys: IntakeKeysTable;
  intake_requests: IntakeRequestsTable;
  gateway_events: GatewayEventsTable;
  disputes: DisputesTable;
  dispute_history: DisputeHistoryTable;
  data_keys: DataKeysTable;
  access_records: AccessRecordsTable;
  access_alerts: AccessAlertsTable;
  retention_runs: RetentionRunsTable;
  retention_file_deletions: RetentionFileDeletionsTable;
}

export type Order = Selectable<OrdersTable>;
export type NewOrder = Insertable<OrdersTable>;
export type OrderUpdate = Updateable<OrdersTable>;
export type Staff = Selectable<StaffTable>;
