// The order detail screen (spec §2 "Order detail", §3 "Order details", "Remark payload", §4 "Status moves on
// order detail"): one call returns everything the page shows; a field without a value is left out.
import { Type, type Static, type TSchema } from 'typebox';
import { ERROR_CODES, MIN_TRANSACTION_FIELD_LENGTH, PROCESS_STATUSES, REMARK_MAX_LENGTH } from './domain.js';
import { Envelope } from './envelope.js';
import { OrderTiming } from './orders.js';

type FieldKind = 'text' | 'yesNo' | 'number' | 'date' | 'timestamp';

/** Every order field of spec §3 "Order details", by the kind of value it holds. Dates: 'YYYY-MM-DD'; timestamps: ISO 8601 UTC. */
export const ORDER_DETAIL_FIELDS = {
  // Identity, payment and processing
  order_id: 'text',
  email: 'text',
  landing_site: 'text',
  transaction_id: 'text',
  merchant_name: 'text',
  payment_status: 'text',
  amount_cents: 'number',
  currency: 'text',
  process_status: 'text',
  processing_type: 'text',
  processing_date: 'date',
  assign_date: 'timestamp',
  refund_date: 'timestamp',
  create_ts: 'timestamp',
  // Representative
  applying_for_someone: 'yesNo',
  applying_for_minor: 'yesNo',
  representative_is: 'text',
  being_paid: 'yesNo',
  membership_id: 'text',
  province_or_territory: 'text',
  surname: 'text',
  first_name: 'text',
  firm_or_organization: 'text',
  mailing_address: 'text',
  telephone_number: 'text',
  country_code: 'text',
  postal_code: 'text',
  fax_number: 'text',
  email_address: 'text',
  // Travel document
  travel_document: 'text',
  country_on_passport: 'text',
  taiwan_personal_identification_number: 'text',
  confirm_taiwan_personal_identification_number: 'text',
  lawful_permanent_resident_of_us: 'yesNo',
  uscis_number: 'text',
  confirm_uscis_number: 'text',
  uscis_exp_year: 'number',
  citizen_country: 'text',
  // Passport
  passport_number: 'text',
  confirm_passport_number: 'text',
  passport_surname: 'text',
  passport_first_name: 'text',
  birth_year: 'number',
  birth_month: 'number',
  birth_date: 'number',
  gender: 'text',
  country_of_birth: 'text',
  city_of_birth: 'text',
  passport_issue_year: 'number',
  passport_issue_month: 'number',
  passport_issue_date: 'number',
  passport_exp_year: 'number',
  passport_exp_month: 'number',
  passport_exp_date: 'number',
  // Personal
  country: 'text',
  marital_status: 'text',
  appliedd_for_visa_before: 'yesNo',
  uci_number: 'text',
  confirm_uci_number: 'text',
  // Employment
  occupation: 'text',
  job_title: 'text',
  employer_or_school_name: 'text',
  job_country: 'text',
  job_state: 'text',
  job_city: 'text',
  working_since: 'number',
  // Contact and residence
  preferred_language: 'text',
  apartment_number: 'text',
  house_name: 'text',
  street_name: 'text',
  street_name_2: 'text',
  city: 'text',
  res_state: 'text',
  res_zip_code: 'text',
  district: 'text',
  // Travel plan
  do_you_know_when_travel_to_canada: 'yesNo',
  travel_to_canada_year: 'date',
  travel_to_canada_hour: 'text',
  // Background
  have_you_ever_been_refused_a_visa_or_permit: 'yesNo',
  country_that_refused_you_a_visa_or_permit: 'text',
  have_you_ever_committed_been_arrested: 'yesNo',
  please_indicate_where_committed_been_arrested: 'text',
  is_your_contact_with_tuberculosis: 'yesNo',
  have_you_ever_been_diagnosed_with_tuberculosis: 'yesNo',
  past_two_years_diagnosed_with_tuberculosis: 'yesNo',
  have_one_of_these_conditions: 'yesNo',
  additional_details: 'text',
  // Evidence of the customer's consent
  customer_sign: 'text',
  customer_date: 'timestamp',
  ip_address: 'text',
  customer_browser: 'text',
  customer_timezone: 'text',
  /** The version of the landing site's legal texts the customer agreed to (issue 20). */
  legal_version: 'number',
} as const satisfies Record<string, FieldKind>;
export type OrderDetailField = keyof typeof ORDER_DETAIL_FIELDS;

const fieldSchema = (kind: FieldKind): TSchema =>
  kind === 'yesNo' ? Type.Boolean() : kind === 'number' ? Type.Integer() : Type.String();

const OrderFields = Type.Object(
  Object.fromEntries(
    Object.entries(ORDER_DETAIL_FIELDS).map(([name, kind]) => [name, Type.Optional(fieldSchema(kind))]),
  ) as Record<string, TSchema>,
);

export const RemarkEntry = Type.Object({
  id: Type.Integer(),
  order_id: Type.String(),
  create_ts: Type.String(),
  /** America/New_York, MM/DD/YYYY and 24-hour HH:mm:ss with EST/EDT (spec §9). */
  us_date: Type.String(),
  us_time: Type.String(),
  /** The staff member who wrote it (spec: remark_name "as the team"). */
  remark_name: Type.String(),
  remark: Type.String(),
  whatsapp: Type.Boolean(),
  telephone: Type.Boolean(),
  status_refund: Type.Boolean(),
  voided: Type.Boolean(),
  chargeback: Type.Boolean(),
  report_error: Type.Boolean(),
});
export type RemarkEntry = Static<typeof RemarkEntry>;

export const UploadedDocument = Type.Object({
  id: Type.Integer(),
  /** The original file name, sanitized. */
  file1: Type.String(),
  content_type: Type.String(),
  size_bytes: Type.Integer(),
  create_ts: Type.String(),
  uploaded_by: Type.Optional(Type.String()),
  /** Spec §3 uploadDoc: the applicant's name and the provider the approval mail went with. */
  customer_name: Type.Optional(Type.String()),
  mail_service_provider: Type.Optional(Type.String()),
  /** What the desk read in it (issue 35): IRCC's application number and the eTA's expiry (YYYY-MM-DD). */
  application_number: Type.Optional(Type.String()),
  expires_on: Type.Optional(Type.String()),
  /** Whether it named the order's traveller (absent for documents uploaded before the desk read them). */
  matched: Type.Optional(Type.Boolean()),
  /** The member's reason for sending it though it did not match or could not be read. */
  sent_anyway: Type.Optional(Type.String()),
});

export const MailEntry = Type.Object({
  id: Type.Integer(),
  order_id: Type.String(),
  kind: Type.String(),
  to: Type.String(),
  subject: Type.String(),
  provider: Type.String(),
  state: Type.String(),
  attempts: Type.Integer(),
  last_error: Type.Optional(Type.String()),
  create_ts: Type.String(),
  sent_at: Type.Optional(Type.String()),
  /** The sender it went out as, and the provider's id for it once accepted (delivery evidence). */
  from: Type.Optional(Type.String()),
  provider_message_id: Type.Optional(Type.String()),
  /** When a queued mail is tried next (after a failed attempt). */
  next_attempt_at: Type.Optional(Type.String()),
});

export const DownloadEntry = Type.Object({
  id: Type.Integer(),
  order_id: Type.String(),
  create_ts: Type.String(),
  ip: Type.String(),
  timezone: Type.Optional(Type.String()),
  browser: Type.Optional(Type.String()),
  os: Type.Optional(Type.String()),
  device: Type.Optional(Type.String()),
  device_type: Type.Optional(Type.String()),
  location: Type.Optional(Type.String()),
});

/**
 * One line of the order's timeline, from the audit trail: who did what, from which state to which, when. The action
 * is in words (AUDIT_ACTIONS); a row no staff member made is a whole line naming its source, without an actor.
 */
export const ActivityEntry = Type.Object({
  at: Type.String(),
  /** The staff member who acted ('System' when nobody did); absent when the action's words name the source. */
  actor: Type.Optional(Type.String()),
  action: Type.String(),
  from: Type.Optional(Type.String()),
  to: Type.Optional(Type.String()),
  detail: Type.Optional(Type.String()),
});
export type ActivityEntry = Static<typeof ActivityEntry>;

export const OrderDetails = Type.Intersect([
  OrderFields,
  Type.Object({
    version: Type.Integer(),
    /** The holder (spec: assign_to), with the date they took it in assign_date. */
    assign_to: Type.Optional(Type.String()),
    assign_to_id: Type.Optional(Type.Integer()),
    uploadDoc: Type.Array(UploadedDocument),
    mailHistory: Type.Array(MailEntry),
    downloadHistory: Type.Array(DownloadEntry),
    remark: Type.Array(RemarkEntry),
    activity: Type.Array(ActivityEntry),
    /** When retention or an erasure request erased the order's personal data (issue 24); absent while kept. */
    erasedAt: Type.Optional(Type.String()),
    /** An Admin's legal hold, which keeps the order from every erasure (issue 24). */
    legalHold: Type.Optional(Type.Object({ heldAt: Type.String(), heldBy: Type.String(), reason: Type.String() })),
    /** Urgency and waiting time, as the order's list row has them (issue 35). */
    timing: OrderTiming,
  }),
]);
export type OrderDetails = Static<typeof OrderDetails> & Partial<Record<OrderDetailField, string | number | boolean>>;
export const OrderDetailsParams = Type.Object({ orderId: Type.String({ minLength: 1, maxLength: 64 }) });
export const OrderDetailsResponse = Envelope(OrderDetails);

const Flag = Type.Union([Type.Literal('Y'), Type.Literal('')], { errorMessage: "Flags are 'Y' or empty." });

/** Spec §3 "Remark payload": the flags are 'Y' when ticked, otherwise empty. The author is the signed-in person. */
export const AddRemarkBody = Type.Object({
  orderId: Type.String({ minLength: 1, maxLength: 64 }),
  remark: Type.String({
    minLength: 1,
    maxLength: REMARK_MAX_LENGTH,
    pattern: '\\S',
    errorMessage: {
      default: 'Please enter your remark',
      maxLength: `Remark must be at most ${REMARK_MAX_LENGTH} characters.`,
    },
  }),
  remarkerName: Type.Optional(Type.String({ maxLength: 200 })),
  whatsapp: Type.Optional(Flag),
  telephone: Type.Optional(Flag),
  statusRefund: Type.Optional(Flag),
  voided: Type.Optional(Flag),
  chargeBack: Type.Optional(Flag),
  reportError: Type.Optional(Flag),
});
export type AddRemarkBody = Static<typeof AddRemarkBody>;
export const AddRemarkResponse = Envelope(RemarkEntry);

/** Spec §4 "Status moves on order detail": one order, the status it goes to, and the version the person saw. */
export const MoveOrderStatusBody = Type.Object({
  orderId: Type.String({ minLength: 1, maxLength: 64 }),
  updatingStatus: Type.Enum(PROCESS_STATUSES),
  version: Type.Integer({ minimum: 1 }),
});
export type MoveOrderStatusBody = Static<typeof MoveOrderStatusBody>;

export const SaveTransactionBody = Type.Object({
  orderId: Type.String({ minLength: 1, maxLength: 64 }),
  transactionId: Type.String({
    minLength: MIN_TRANSACTION_FIELD_LENGTH,
    maxLength: 200,
    pattern: '\\S',
    errorMessage: 'Please enter your Transaction Id',
  }),
  merchantName: Type.String({
    minLength: MIN_TRANSACTION_FIELD_LENGTH,
    maxLength: 200,
    pattern: '\\S',
    errorMessage: 'Please enter your Merchant Name',
  }),
  /** The version the person saw: a change made meanwhile is named back, never overwritten. */
  version: Type.Integer({ minimum: 1 }),
});
export type SaveTransactionBody = Static<typeof SaveTransactionBody>;

/** A single-order change: the order's new version, so the page can go on without a stale copy. */
export const OrderChangeResult = Type.Object({ orderId: Type.String(), version: Type.Integer() });
export const OrderChangeResponse = Envelope(OrderChangeResult);

/** The 409 of a stale single-order change names who changed the order and when. */
export const StaleOrderData = Type.Object({
  code: Type.Enum(ERROR_CODES),
  changedBy: Type.Optional(Type.String()),
  changedAt: Type.Optional(Type.String()),
});
