// Builds demo orders with their remarks, approval mails and downloads in memory, batch by batch, from a
// seeded PRNG: the same seed, first order number and reference time always give the same rows. What the desk would
// have recorded comes with them: an audit row for every staff comment, and for every order in ChargeBack the dispute
// its gateway reported, with the remarks, audit rows and dispute history its webhooks and the evidence leave.
import {
  PROCESS_STATUSES,
  type MailProvider,
  type ProcessingType,
  type ProcessStatus,
  type StaffType,
} from '@eta/contracts';
import { Random, Weighted } from './random.js';
import {
  CANADIAN_PROVINCES,
  COMPANY_WORDS,
  COUNTRIES,
  DISPUTE_REASONS,
  DISPUTE_WAITING_REMARKS,
  IP_FIRST_OCTETS,
  MARITAL_STATUSES,
  OCCUPATIONS,
  PROGRESS_REMARKS,
  REFUSING_COUNTRIES,
  REPRESENTATIVES,
  STATUS_REMARKS,
  TRAVEL_DOCUMENTS,
  UNITED_STATES,
  USER_AGENTS,
  type City,
  type Country,
  type NamePool,
  type RemarkTemplate,
} from './catalog.js';
import type { DB, SealedFields } from '../db/schema.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const YEAR = 365.25 * DAY;

export interface SeedStaff {
  id: number;
  name: string;
  type: StaffType;
}
export interface SeedSite {
  key: string;
  displayName: string;
}
export interface SeedGateway {
  id: number;
  name: string;
}

export interface GeneratorContext {
  seed: number;
  /** Numeric part of the first order id of this run (ETA-200000001 → 200000001). */
  firstNumber: number;
  /** Orders in this run. */
  total: number;
  /** "Now" of the demo data, ms since the epoch: orders are created in the two years before it. */
  reference: number;
  staff: readonly SeedStaff[];
  sites: readonly SeedSite[];
  gateways: readonly SeedGateway[];
  /** The stored signature image every demo order points at (demo-files.ts). */
  signatureKey: string;
}

/** A row as JSON for json_populate_recordset: columns of table T; undefined values are left out (NULL). */
export type Row<T extends keyof DB> = {
  [K in keyof DB[T]]?: string | number | boolean | SealedFields | Readonly<Record<string, unknown>> | null;
};

export interface Batch {
  /** Orders without `id`: the loader adds the ids it reserved. */
  orders: Row<'orders'>[];
  /** Child rows carry their order's position in the run as `order_id`; the loader swaps in orders.id. */
  remarks: Row<'remarks'>[];
  mails: Row<'mails'>[];
  downloads: Row<'downloads'>[];
  disputes: Row<'disputes'>[];
  /** A history row carries its dispute's position in the run (of disputes) as `dispute_id`. */
  dispute_history: Row<'dispute_history'>[];
  audit_log: Row<'audit_log'>[];
}

export const emptyBatch = (): Batch => ({
  orders: [],
  remarks: [],
  mails: [],
  downloads: [],
  disputes: [],
  dispute_history: [],
  audit_log: [],
});

/** The child tables of a batch, in the order they are loaded (a dispute before its history). */
export const CHILD_TABLES = ['remarks', 'mails', 'downloads', 'disputes', 'dispute_history', 'audit_log'] as const;
export type ChildTable = (typeof CHILD_TABLES)[number];
/** The column of a child row naming its parent, and the table the parent is in. */
export const PARENT_OF: Record<ChildTable, { column: 'order_id' | 'dispute_id'; table: 'orders' | 'disputes' }> = {
  remarks: { column: 'order_id', table: 'orders' },
  mails: { column: 'order_id', table: 'orders' },
  downloads: { column: 'order_id', table: 'orders' },
  disputes: { column: 'order_id', table: 'orders' },
  dispute_history: { column: 'dispute_id', table: 'disputes' },
  audit_log: { column: 'order_id', table: 'orders' },
};

/** Statuses the customer has the approved eTA in (an approval mail exists). */
const APPROVED: ReadonlySet<ProcessStatus> = new Set(['Completed', 'Customer Called', 'ChargeBack']);

// Status mix by how long ago processing could start: fresh orders wait in the queues, old ones are done.
const STATUS_FRESH = new Weighted<ProcessStatus>([
  ['New', 50],
  ['Pending', 28],
  ['Awaiting', 5],
  ['AwaitingGovt', 3],
  ['Contact Customer', 3],
  ['Customer Called', 2],
  ['Completed', 6],
  ['Deleted', 2],
  ['Refunds', 1],
]);
const STATUS_RECENT = new Weighted<ProcessStatus>([
  ['New', 10],
  ['Pending', 12],
  ['Completed', 50],
  ['Awaiting', 6],
  ['AwaitingGovt', 6],
  ['Customer Called', 4],
  ['Contact Customer', 4],
  ['Refunds', 3],
  ['Refund Completed', 1],
  ['Deleted', 3],
  ['ChargeBack', 0.5],
]);
const STATUS_OLD = new Weighted<ProcessStatus>([
  ['Completed', 78],
  ['Refund Completed', 5.5],
  ['Deleted', 5],
  ['ChargeBack', 2],
  ['Refunds', 1.5],
  ['Awaiting', 1.5],
  ['AwaitingGovt', 1.2],
  ['Customer Called', 2],
  ['Contact Customer', 1.5],
  ['New', 0.4],
  ['Pending', 0.4],
]);
/** Future orders whose processing date has not come yet. */
const STATUS_NOT_YET = new Weighted<ProcessStatus>([
  ['New', 96],
  ['Deleted', 2],
  ['Refunds', 2],
]);

/** Share of orders of each status that has an assignee. */
const ASSIGNED_SHARE: Record<ProcessStatus, number> = {
  New: 0,
  Pending: 1,
  Awaiting: 0.85,
  AwaitingGovt: 0.85,
  'Customer Called': 0.85,
  'Contact Customer': 0.85,
  Completed: 0.85,
  Refunds: 0.6,
  'Refund Completed': 0.6,
  ChargeBack: 0.6,
  Deleted: 0.15,
};
/** Weights of 0, 1, 2 and 3 remarks per order (about 1.5 on average over a large load). */
const REMARK_COUNTS: Record<ProcessStatus, Weighted<number>> = {
  New: counts([80, 20, 0, 0]),
  Pending: counts([30, 50, 20, 0]),
  Awaiting: counts([0, 30, 45, 25]),
  AwaitingGovt: counts([0, 40, 40, 20]),
  'Customer Called': counts([0, 20, 40, 40]),
  'Contact Customer': counts([0, 20, 40, 40]),
  Completed: counts([5, 35, 40, 20]),
  Refunds: counts([0, 30, 40, 30]),
  'Refund Completed': counts([0, 30, 40, 30]),
  ChargeBack: counts([0, 20, 40, 40]),
  Deleted: counts([30, 60, 10, 0]),
};
function counts(w: [number, number, number, number]): Weighted<number> {
  return new Weighted(w.map((weight, n) => [n, weight] as const));
}

const DOWNLOAD_COUNT = new Weighted([
  [1, 70],
  [2, 25],
  [3, 5],
] as const);
const PROCESSING_TYPES = new Weighted<ProcessingType>([
  ['Standard', 62],
  ['Priority', 28],
  ['Future', 10],
]);
const PAYMENT = new Weighted<'Success' | 'Pending' | 'Failed'>([
  ['Success', 92],
  ['Pending', 5],
  ['Failed', 3],
]);
const GENDERS = new Weighted<string>([
  ['Female', 50],
  ['Male', 49.5],
  ['Another gender', 0.5],
]);
const PROVIDERS = new Weighted<MailProvider>([
  ['AWS', 60],
  ['Sendgrid', 40],
]);
const MARITAL = new Weighted<string>(MARITAL_STATUSES);
const TRAVEL_DOCUMENT = new Weighted<string>(TRAVEL_DOCUMENTS);
const OCCUPATION = new Weighted(OCCUPATIONS.map((o) => [o, o[1]] as const));
const USER_AGENT = new Weighted(USER_AGENTS.map((u) => [u, u[5]] as const));
const COUNTRY = new Weighted(COUNTRIES.map((c) => [c, c.weight] as const));
/**
 * How each gateway with a dispute API reports a chargeback: its reason codes, its statuses while the evidence is
 * awaited, once it is under review and once decided, and its dispute ids. Authorize.Net has no dispute API.
 */
interface DisputeStyle {
  reasons: Weighted<string>;
  open: string;
  review: string;
  decided: (outcome: 'won' | 'lost') => string;
  id: (r: Random, orderNumber: number) => string;
}
const DISPUTE_STYLES: Record<string, DisputeStyle> = {
  Stripe: {
    reasons: new Weighted(DISPUTE_REASONS.Stripe),
    open: 'needs_response',
    review: 'under_review',
    decided: (outcome) => outcome,
    id: (r) => r.pattern('dp_1%%%%%%%%%%%%%%%%%%%%%%%'),
  },
  PayPal: {
    reasons: new Weighted(DISPUTE_REASONS.PayPal),
    open: 'WAITING_FOR_SELLER_RESPONSE',
    review: 'UNDER_REVIEW',
    decided: () => 'RESOLVED',
    // Unique per gateway (one dispute per demo order): the order's number makes it so without a lookup.
    id: (_r, orderNumber) => `PP-D-${orderNumber}`,
  },
};
const DISPUTE_GATEWAYS: readonly string[] = Object.keys(DISPUTE_STYLES);

const DISTRICTS = ['Old Town', 'City Centre', 'Harbourside', 'University District', 'Riverside', 'North End'];

/** Service fee in cents per landing site: [Standard or Future, Priority]. */
const PRICES: Record<string, readonly [number, number]> = {
  default: [8900, 11900],
  'eta-express': [9900, 12900],
  'canada-travel-auth': [7900, 10900],
};

interface Place {
  countryName: string;
  dial: string;
  timezone: string;
  city: City;
  streets: readonly string[];
  phones: readonly string[];
  french: number;
  companySuffix: string;
}

/**
 * A new order row holding every column the generator may fill, unset ones undefined (JSON leaves them out, so
 * they load as NULL): one object shape for all rows keeps a million of them cheap to build and serialise. Not the
 * columns the database writes: the Future orders' due mark, set on insert (migration 036), and the search text
 * (037).
 */
function blankOrder(): Row<'orders'> & Record<Exclude<keyof DB['orders'], 'future_due' | 'search_text'>, undefined> {
  return {
    id: undefined,
    order_id: undefined,
    email: undefined,
    landing_site: undefined,
    payment_status: undefined,
    process_status: undefined,
    processing_type: undefined,
    processing_date: undefined,
    assign_to: undefined,
    assign_date: undefined,
    refund_date: undefined,
    amount_cents: undefined,
    currency: undefined,
    gateway_id: undefined,
    transaction_id: undefined,
    merchant_name: undefined,
    applying_for_someone: undefined,
    applying_for_minor: undefined,
    representative_is: undefined,
    being_paid: undefined,
    membership_id: undefined,
    province_or_territory: undefined,
    surname: undefined,
    first_name: undefined,
    firm_or_organization: undefined,
    mailing_address: undefined,
    telephone_number: undefined,
    country_code: undefined,
    postal_code: undefined,
    fax_number: undefined,
    email_address: undefined,
    travel_document: undefined,
    country_on_passport: undefined,
    taiwan_personal_identification_number: undefined,
    confirm_taiwan_personal_identification_number: undefined,
    lawful_permanent_resident_of_us: undefined,
    uscis_number: undefined,
    confirm_uscis_number: undefined,
    uscis_exp_year: undefined,
    citizen_country: undefined,
    passport_number: undefined,
    confirm_passport_number: undefined,
    passport_surname: undefined,
    passport_first_name: undefined,
    birth_year: undefined,
    birth_month: undefined,
    birth_date: undefined,
    gender: undefined,
    country_of_birth: undefined,
    city_of_birth: undefined,
    passport_issue_year: undefined,
    passport_issue_month: undefined,
    passport_issue_date: undefined,
    passport_exp_year: undefined,
    passport_exp_month: undefined,
    passport_exp_date: undefined,
    country: undefined,
    marital_status: undefined,
    appliedd_for_visa_before: undefined,
    uci_number: undefined,
    confirm_uci_number: undefined,
    occupation: undefined,
    job_title: undefined,
    employer_or_school_name: undefined,
    job_country: undefined,
    job_state: undefined,
    job_city: undefined,
    working_since: undefined,
    preferred_language: undefined,
    apartment_number: undefined,
    house_name: undefined,
    street_name: undefined,
    street_name_2: undefined,
    city: undefined,
    res_state: undefined,
    res_zip_code: undefined,
    district: undefined,
    do_you_know_when_travel_to_canada: undefined,
    travel_to_canada_year: undefined,
    travel_to_canada_hour: undefined,
    have_you_ever_been_refused_a_visa_or_permit: undefined,
    country_that_refused_you_a_visa_or_permit: undefined,
    have_you_ever_committed_been_arrested: undefined,
    please_indicate_where_committed_been_arrested: undefined,
    is_your_contact_with_tuberculosis: undefined,
    have_you_ever_been_diagnosed_with_tuberculosis: undefined,
    past_two_years_diagnosed_with_tuberculosis: undefined,
    have_one_of_these_conditions: undefined,
    additional_details: undefined,
    customer_sign: undefined,
    customer_date: undefined,
    ip_address: undefined,
    customer_browser: undefined,
    customer_timezone: undefined,
    processed_by: undefined,
    processed_at: undefined,
    status_changed_at: undefined,
    legal_version: undefined,
    intake_key_id: undefined,
    charge_id: undefined,
    payment_verified_at: undefined,
    payment_check_due_at: undefined,
    payment_check_attempts: undefined,
    refund_id: undefined,
    dispute_due_at: undefined,
    personal_sealed: undefined,
    passport_number_hmac: undefined,
    erased_at: undefined,
    legal_hold_at: undefined,
    legal_hold_by: undefined,
    legal_hold_by_name: undefined,
    legal_hold_reason: undefined,
    created_at: undefined,
    updated_at: undefined,
    version: undefined,
  };
}

/**
 * The columns the rows of each table fill, in the order the COPY path writes them (id first, then a child row's
 * order): every key of blankOrder for an order, the keys of the object each child row is built as.
 */
export const ROW_COLUMNS = {
  orders: Object.keys(blankOrder()) as (keyof DB['orders'])[],
  remarks: [
    'id',
    'order_id',
    'staff_id',
    'remark_name',
    'remark',
    'whatsapp',
    'telephone',
    'status_refund',
    'voided',
    'chargeback',
    'report_error',
    'created_at',
  ],
  mails: [
    'id',
    'order_id',
    'kind',
    'to_address',
    'subject',
    'html',
    'text',
    'provider',
    'state',
    'attempts',
    'next_attempt_at',
    'provider_message_id',
    'created_at',
    'sent_at',
  ],
  downloads: [
    'id',
    'order_id',
    'created_at',
    'ip',
    'user_agent',
    'browser',
    'os',
    'device',
    'device_type',
    'location',
    'timezone',
  ],
  disputes: [
    'id',
    'order_id',
    'gateway_id',
    'dispute_id',
    'reason',
    'amount_cents',
    'currency',
    'status',
    'evidence_due_by',
    'outcome',
    'outcome_at',
    'evidence_state',
    'evidence_pack_type',
    'evidence_by',
    'evidence_at',
    'created_at',
    'updated_at',
  ],
  dispute_history: ['id', 'dispute_id', 'at', 'status', 'outcome', 'by_name', 'note'],
  audit_log: ['id', 'order_id', 'at', 'actor_id', 'actor_name', 'action', 'target', 'before', 'after', 'ip'],
} as const satisfies { [T in keyof Batch]: readonly (keyof DB[T])[] };

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));
const pad3 = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n));

/** "YYYY-MM-DDT" of each day met so far, by day number since the epoch: a load meets a few hundred. */
const dayPrefixes = new Map<number, string>();

/** `new Date(ms).toISOString()` (the time truncated to a whole ms as Date does), its date part from a cache. */
function iso(ms: number): string {
  const t = Math.trunc(ms);
  const day = Math.floor(t / DAY);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    const text = new Date(day * DAY).toISOString();
    prefix = text.slice(0, text.indexOf('T') + 1);
    dayPrefixes.set(day, prefix);
  }
  let rest = t - day * DAY;
  const milli = rest % 1000;
  rest = (rest - milli) / 1000;
  const second = rest % 60;
  rest = (rest - second) / 60;
  const minute = rest % 60;
  return `${prefix}${pad2((rest - minute) / 60)}:${pad2(minute)}:${pad2(second)}.${pad3(milli)}Z`;
}
const isoDate = (ms: number): string => iso(ms).slice(0, 10);

/** Lower-case ASCII for e-mail addresses: "Seán O'Brien" → "sean", "obrien". */
function ascii(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[łŁ]/g, 'l')
    .replace(/[øØ]/g, 'o')
    .replace(/ı/g, 'i')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

export class DemoOrderGenerator {
  private readonly rng: Random;
  private readonly sites: Weighted<SeedSite>;
  private readonly gateways: Weighted<SeedGateway>;
  private readonly assignees: Weighted<SeedStaff>;
  private readonly remarkers: Weighted<SeedStaff>;
  /** Who sends a chargeback's evidence (Admins and Managers); null without any. */
  private readonly submitters: Weighted<SeedStaff> | null;
  /** The gateways that report disputes, for an order in ChargeBack; null without any. */
  private readonly disputeGateways: Weighted<SeedGateway> | null;
  /** Disputes made so far in this run: the next one's position. */
  private disputeCount = 0;
  /** Run positions that get one order of each status, so every queue has rows even in a small load. */
  private readonly coverage = new Map<number, ProcessStatus>();
  private index = 0;

  constructor(private readonly ctx: GeneratorContext) {
    // The first order number joins the seed so a second load into the same database is new people, not copies.
    this.rng = new Random(Math.imul(ctx.seed ^ 0x5bd1e995, 0x9e3779b1) ^ ctx.firstNumber);
    this.sites = new Weighted(
      ctx.sites.map((s) => [s, s.key === 'default' ? 55 : 45 / Math.max(1, ctx.sites.length - 1)] as const),
    );
    this.gateways = new Weighted(ctx.gateways.map((g, i) => [g, [70, 20, 10][i] ?? 5] as const));
    const weight = (s: SeedStaff, byType: Partial<Record<StaffType, number>>) => [s, byType[s.type] ?? 0] as const;
    this.assignees = new Weighted(ctx.staff.map((s) => weight(s, { Team: 3, Manager: 1 })));
    this.remarkers = new Weighted(
      ctx.staff.map((s) => weight(s, { Team: 4, Manager: 1, Telecaller: 2, 'Night Staff': 1.5 })),
    );
    const submitters = ctx.staff.filter((s) => s.type === 'Manager' || s.type === 'Admin');
    this.submitters =
      submitters.length > 0 ? new Weighted(submitters.map((s) => weight(s, { Manager: 2, Admin: 1 }))) : null;
    const disputing = ctx.gateways.filter((g) => DISPUTE_GATEWAYS.includes(g.name));
    this.disputeGateways =
      disputing.length > 0 ? new Weighted(disputing.map((g) => [g, g.name === 'Stripe' ? 3 : 1] as const)) : null;
    if (ctx.total >= PROCESS_STATUSES.length) {
      PROCESS_STATUSES.forEach((status, j) =>
        this.coverage.set(Math.floor(((j + 0.5) * ctx.total) / PROCESS_STATUSES.length), status),
      );
    }
  }

  get remaining(): number {
    return this.ctx.total - this.index;
  }

  batch(size: number): Batch {
    const out = emptyBatch();
    const end = Math.min(this.ctx.total, this.index + size);
    for (; this.index < end; this.index++) this.order(this.index, out);
    return out;
  }

  /** Creation time of the i-th order: growing volume over two years, with a busy last fortnight. */
  private createdAt(i: number): number {
    const u = (i + this.rng.next()) / this.ctx.total;
    const ref = this.ctx.reference;
    if (u < 0.85) return ref - 730 * DAY + 716 * DAY * Math.sqrt(u / 0.85);
    if (u < 0.95) return ref - 14 * DAY + 12 * DAY * ((u - 0.85) / 0.1);
    return ref - 2 * DAY + (2 * DAY - 2 * MINUTE) * ((u - 0.95) / 0.05);
  }

  /** A moment `min` to `max` after `from`; the range shrinks to fit before the reference time. */
  private later(from: number, min: number, max: number): number {
    const room = Math.max(0, this.ctx.reference - MINUTE - from);
    const hi = Math.min(max, room);
    const lo = Math.min(min, hi);
    return from + lo + this.rng.next() * (hi - lo);
  }

  private order(i: number, out: Batch): void {
    const r = this.rng;
    const ref = this.ctx.reference;
    const orderId = `ETA-${this.ctx.firstNumber + i}`;
    const created = this.createdAt(i);
    const site = this.sites.pick(r);
    const forced = this.coverage.get(i);
    const payment = forced ? 'Success' : PAYMENT.pick(r);
    let type = PROCESSING_TYPES.pick(r);
    if (forced && forced !== 'New' && type === 'Future') type = 'Standard';

    // Future orders may be processed from their processing date on; the rest from creation.
    let processingDate: number | null = null;
    let start = created;
    if (type === 'Future') {
      processingDate = Math.floor(created / DAY) * DAY + r.int(7, 330) * DAY;
      start = Math.max(created, processingDate + r.int(0, 10) * HOUR);
    }
    let status: ProcessStatus;
    if (payment !== 'Success') status = 'New';
    else if (forced) status = forced;
    else if (start > ref) status = STATUS_NOT_YET.pick(r);
    else if (ref - start < 2 * DAY) status = STATUS_FRESH.pick(r);
    else if (ref - start < 14 * DAY) status = STATUS_RECENT.pick(r);
    else status = STATUS_OLD.pick(r);

    // Timeline: claimed, processed (approval or decision), refund asked or done.
    const from = Math.min(start, ref - MINUTE);
    const assignedAt = this.later(from, 5 * MINUTE, 20 * HOUR);
    const processedAt = this.later(assignedAt, 20 * MINUTE, 2 * DAY);
    const refundAt = this.later(processedAt, 1 * DAY, 20 * DAY);
    let updated = created;
    let version = 1;
    const assignee = payment === 'Success' && r.chance(ASSIGNED_SHARE[status]) ? this.assignees.pick(r) : null;
    if (assignee) {
      updated = assignedAt;
      version++;
    }
    if (status !== 'New' && status !== 'Pending') {
      updated = Math.max(updated, processedAt);
      version++;
    }
    const refunded = status === 'Refunds' || status === 'Refund Completed';
    if (refunded) {
      updated = Math.max(updated, refundAt);
      version++;
    }

    let gateway = this.gateways.pick(r);
    // An order is in ChargeBack because its gateway reported a dispute: one that has a dispute API.
    if (status === 'ChargeBack' && !DISPUTE_STYLES[gateway.name] && this.disputeGateways) {
      gateway = this.disputeGateways.pick(r);
    }
    const [standardPrice, priorityPrice] = PRICES[site.key] ?? [8900, 11900];
    const ua = USER_AGENT.pick(r);
    const ip = `${r.pick(IP_FIRST_OCTETS)}.${r.int(0, 255)}.${r.int(0, 255)}.${r.int(1, 254)}`;

    const row: Row<'orders'> = blankOrder();
    row.order_id = orderId;
    row.landing_site = site.key;
    row.payment_status = payment;
    row.process_status = status;
    row.processing_type = type;
    row.amount_cents = type === 'Priority' ? priorityPrice : standardPrice;
    row.currency = 'USD';
    // The texts each site started with: version 1 of its legal texts.
    row.legal_version = 1;
    row.payment_check_attempts = 0;
    row.gateway_id = gateway.id;
    row.customer_sign = this.ctx.signatureKey;
    row.customer_date = iso(created - r.int(1, 15) * MINUTE);
    row.ip_address = ip;
    row.customer_browser = ua[0];
    row.created_at = iso(created);
    row.updated_at = iso(updated);
    // Its last move (assigned, processed or refunded) gave the order its status.
    row.status_changed_at = iso(updated);
    row.version = version;
    const p = this.applicant(created, row);
    if (processingDate !== null) row.processing_date = isoDate(processingDate);
    if (assignee) {
      row.assign_to = assignee.id;
      row.assign_date = iso(assignedAt);
    }
    if (refunded) row.refund_date = iso(refundAt);
    if (APPROVED.has(status) && payment === 'Success') {
      // The approved document was uploaded, so someone moved the order to Completed: its holder, else a
      // worker chosen from the order's position (no PRNG draw, so the rest of the data stays as it was).
      row.processed_by = (assignee ?? this.assignees.at(((Math.imul(i + 1, 0x9e3779b1) >>> 0) / 2 ** 32) % 1)).id;
      row.processed_at = iso(processedAt);
    }
    if (payment === 'Success') {
      row.transaction_id = this.transactionId(gateway.name);
      row.merchant_name = site.displayName.toUpperCase();
    }
    out.orders.push(row);

    // An order in ChargeBack was Completed until its dispute came: its comments up to then are a Completed order's.
    const worked = status === 'ChargeBack' ? 'Completed' : status;
    if (payment === 'Success') this.remarks(i, orderId, worked, from, refunded ? refundAt : processedAt, out);
    else if (payment === 'Failed' && r.chance(0.2)) {
      const at = this.later(created, 10 * MINUTE, 2 * HOUR);
      this.remark(i, orderId, { text: 'Card declined; customer e-mailed a new payment link.' }, at, out);
    }

    if (APPROVED.has(status)) {
      const sentAt = processedAt + r.int(2, 8) * 1000;
      this.mail(i, orderId, 'approval', p, site, processedAt, sentAt, out);
      if (r.chance(0.05)) {
        const resendAt = this.later(sentAt, HOUR, 5 * DAY);
        this.mail(i, orderId, 'resend', p, site, resendAt, resendAt + r.int(2, 8) * 1000, out);
      }
      if (r.chance(status === 'ChargeBack' ? 0.8 : 0.5)) {
        let at = sentAt;
        for (let k = DOWNLOAD_COUNT.pick(r); k > 0; k--) {
          at = this.later(at, 2 * MINUTE, 3 * DAY);
          const same = r.chance(0.7);
          const agent = same ? ua : USER_AGENT.pick(r);
          out.downloads.push({
            order_id: i,
            created_at: iso(at),
            ip: same ? ip : `${r.pick(IP_FIRST_OCTETS)}.${r.int(0, 255)}.${r.int(0, 255)}.${r.int(1, 254)}`,
            user_agent: agent[0],
            browser: agent[1],
            os: agent[2],
            device: agent[3],
            device_type: agent[4],
            location: p.location,
            timezone: p.timezone,
          });
        }
      }
    }

    const style = DISPUTE_STYLES[gateway.name];
    if (status === 'ChargeBack' && payment === 'Success' && style) {
      this.dispute(i, orderId, row, { gateway, style, deliveredAt: processedAt, updated, version }, out);
    }
  }

  /**
   * The chargeback of an order in ChargeBack, as the gateway's webhooks and the desk left it: opened days to weeks
   * after delivery (the order moving from Completed to ChargeBack), the evidence sent by an Admin or a Manager for
   * most, and for the older ones the gateway's decision, won or lost (a dispute without evidence is lost once due).
   * Each step leaves what the desk writes for it: a webhook its remark, audit row and history line; the evidence its
   * history line and audit row, with the comment of whoever sent it.
   */
  private dispute(
    i: number,
    orderId: string,
    row: Row<'orders'>,
    order: { gateway: SeedGateway; style: DisputeStyle; deliveredAt: number; updated: number; version: number },
    out: Batch,
  ): void {
    const r = this.rng;
    const ref = this.ctx.reference;
    const { gateway, style } = order;
    const position = this.disputeCount++;
    const disputeId = style.id(r, this.ctx.firstNumber + i);
    const reason = style.reasons.pick(r);
    const amount = row.amount_cents as number;
    const openedAt = this.later(order.deliveredAt, 3 * DAY, 60 * DAY);
    const dueBy = openedAt + r.int(7, 20) * DAY;
    const submitter = this.submitters && r.chance(dueBy > ref ? 0.35 : 0.8) ? this.submitters.pick(r) : null;
    const packType = r.chance(0.7) ? 1 : 2;
    const evidenceAt = submitter ? this.later(openedAt, HOUR, Math.max(HOUR, dueBy - openedAt - HOUR)) : 0;
    // Decided some weeks after the evidence; without evidence, lost once the due date has passed.
    let decidedAt = submitter ? evidenceAt + r.int(10, 60) * DAY : dueBy + r.int(1, 3) * DAY;
    const outcome = decidedAt >= ref - MINUTE ? null : submitter && r.chance(0.55) ? 'won' : 'lost';
    if (!outcome) decidedAt = 0;

    const due = iso(dueBy);
    let version = order.version;
    let processStatus = 'Completed';
    let dueAt: string | null = null;
    let status = style.open;
    // A webhook of the dispute at `stage` (the gateway's status already in `status`), as applyDisputeEvent writes it.
    const webhook = (at: number, stage: 'created' | 'updated' | 'closed', note: string, decided: string | null) => {
      const before = { process_status: processStatus, dispute_due_at: dueAt, version };
      const movedTo = stage === 'created' ? { process_status: 'ChargeBack' } : {};
      processStatus = 'ChargeBack';
      dueAt = decided ? null : due;
      version++;
      this.systemRemark(i, gateway.name, note, at, out);
      out.dispute_history.push({
        dispute_id: position,
        at: iso(at),
        status,
        outcome: decided,
        by_name: gateway.name,
        note,
      });
      const dispute = { id: disputeId, status, outcome: decided, new: stage === 'created' };
      const after = { ...movedTo, dispute_due_at: dueAt, dispute, version };
      this.audit(i, orderId, at, { id: null, name: gateway.name }, `order.dispute-${stage}`, before, after, out);
    };

    const amountText = `${(amount / 100).toFixed(2)} USD`;
    const opened = `Chargeback opened at ${gateway.name}: ${reason}, ${amountText}, evidence due ${isoDate(dueBy)} (dispute ${disputeId}).`;
    webhook(openedAt, 'created', opened, null);
    let last = openedAt;
    if (submitter) {
      const note = `Evidence (defence pack ${packType}) submitted to ${gateway.name} for review.`;
      out.dispute_history.push({
        dispute_id: position,
        at: iso(evidenceAt),
        status,
        outcome: null,
        by_name: submitter.name,
        note,
      });
      this.audit(
        i,
        orderId,
        evidenceAt,
        submitter,
        'dispute.evidence-submitted',
        { evidence_state: null },
        { evidence_state: 'submitted', dispute: disputeId, gateway: gateway.name, defencePackType: packType },
        out,
      );
      const commentAt = this.later(evidenceAt, MINUTE, 10 * MINUTE);
      this.remark(i, orderId, r.pick(STATUS_REMARKS.ChargeBack), commentAt, out, submitter);
      // The gateway answers the submission: the dispute is under review.
      const reviewAt = this.later(commentAt, MINUTE, 30 * MINUTE);
      status = style.review;
      webhook(reviewAt, 'updated', `Chargeback ${disputeId} is now ${status} at ${gateway.name}.`, null);
      last = reviewAt;
    } else {
      const at = this.later(openedAt, HOUR, 2 * DAY);
      this.remark(i, orderId, r.pick(DISPUTE_WAITING_REMARKS), at, out);
      last = Math.max(last, at);
    }
    if (outcome) {
      status = style.decided(outcome);
      webhook(
        decidedAt,
        'closed',
        `Chargeback ${disputeId} closed at ${gateway.name}: ${outcome} (${status}).`,
        outcome,
      );
      last = decidedAt;
    }

    out.disputes.push({
      order_id: i,
      gateway_id: gateway.id,
      dispute_id: disputeId,
      reason,
      amount_cents: amount,
      currency: 'USD',
      status,
      evidence_due_by: due,
      outcome,
      outcome_at: outcome ? iso(decidedAt) : null,
      evidence_state: submitter ? 'submitted' : null,
      evidence_pack_type: submitter ? packType : null,
      evidence_by: submitter ? submitter.id : null,
      evidence_at: submitter ? iso(evidenceAt) : null,
      created_at: iso(openedAt),
      updated_at: iso(last),
    });
    // The order as the last webhook left it: the due date while the dispute is open, a version per change.
    row.dispute_due_at = outcome ? null : due;
    row.version = version;
    row.updated_at = iso(Math.max(order.updated, last));
  }

  private remarks(i: number, orderId: string, status: ProcessStatus, from: number, to: number, out: Batch): void {
    const n = REMARK_COUNTS[status].pick(this.rng);
    let at = from;
    const step = Math.max(MINUTE, (to - from) / (n + 1));
    for (let k = 0; k < n; k++) {
      at = this.later(at, MINUTE, step);
      const last = k === n - 1;
      this.remark(i, orderId, this.rng.pick(last ? STATUS_REMARKS[status] : PROGRESS_REMARKS), at, out);
    }
  }

  /** A staff member's comment, and its audit row as Add Comment writes it (the Activity of the order). */
  private remark(
    i: number,
    orderId: string,
    t: RemarkTemplate,
    at: number,
    out: Batch,
    staff: SeedStaff = this.remarkers.pick(this.rng),
  ): void {
    const flags = {
      whatsapp: t.whatsapp ?? false,
      telephone: t.telephone ?? false,
      status_refund: t.statusRefund ?? false,
      voided: t.voided ?? false,
      chargeback: t.chargeback ?? false,
      report_error: t.reportError ?? false,
    };
    out.remarks.push({
      order_id: i,
      staff_id: staff.id,
      remark_name: staff.name,
      remark: t.text,
      ...flags,
      created_at: iso(at),
    });
    this.audit(i, orderId, at, staff, 'order.remark', null, flags, out);
  }

  /** A remark a gateway's webhook writes (no staff member: the gateway's name as its author). */
  private systemRemark(i: number, by: string, text: string, at: number, out: Batch): void {
    out.remarks.push({
      order_id: i,
      staff_id: null,
      remark_name: by,
      remark: text,
      whatsapp: false,
      telephone: false,
      status_refund: false,
      voided: false,
      chargeback: true,
      report_error: false,
      created_at: iso(at),
    });
  }

  /** An audit row of the order; the demo records no addresses for its staff or gateways. */
  private audit(
    i: number,
    orderId: string,
    at: number,
    actor: { id: number | null; name: string },
    action: string,
    before: Record<string, unknown> | null,
    after: Record<string, unknown>,
    out: Batch,
  ): void {
    out.audit_log.push({
      order_id: i,
      at: iso(at),
      actor_id: actor.id,
      actor_name: actor.name,
      action,
      target: orderId,
      before,
      after,
      ip: null,
    });
  }

  private mail(
    i: number,
    orderId: string,
    kind: 'approval' | 'resend',
    p: Applicant,
    site: SeedSite,
    at: number,
    sentAt: number,
    out: Batch,
  ): void {
    const provider = PROVIDERS.pick(this.rng);
    out.mails.push({
      order_id: i,
      kind,
      to_address: p.email,
      subject: `Your Canada eTA for order ${orderId} is approved`,
      html:
        `<p>Dear ${p.fullName},</p><p>Your electronic travel authorization for order <b>${orderId}</b> has been approved. ` +
        `Download it from the Track Order page with your order ID and e-mail address.</p>` +
        `<p>${site.displayName}</p>`,
      text:
        `Dear ${p.fullName},\n\nYour electronic travel authorization for order ${orderId} has been approved. ` +
        `Download it from the Track Order page with your order ID and e-mail address.\n\n${site.displayName}`,
      provider,
      state: 'sent',
      attempts: 1,
      next_attempt_at: iso(at),
      provider_message_id:
        provider === 'AWS'
          ? this.rng.pattern('0100019%%%%%%%%%-%%%%%%%%-%%%%-%%%%-%%%%-%%%%%%%%%%%%-000000')
          : this.rng.pattern('%%%%%%%%%%%%%%%%%%%%%%'),
      created_at: iso(at),
      sent_at: iso(sentAt),
    });
  }

  private transactionId(gateway: string): string {
    if (gateway === 'Stripe') return this.rng.pattern('ch_3%%%%%%%%%%%%%%%%%%%%%%%');
    if (gateway === 'PayPal') return this.rng.pattern('*****************');
    return this.rng.pattern('###########');
  }

  /** Fills the applicant's columns of `fields` (passport, personal, address, employment, background). */
  private applicant(created: number, fields: Row<'orders'>): Applicant {
    const r = this.rng;
    const country = COUNTRY.pick(r);
    const gender = GENDERS.pick(r);
    const female = gender === 'Female' || (gender === 'Another gender' && r.chance(0.5));
    const names = country.names;
    const first = r.pick(female ? names.female : names.male);
    const surname = this.surname(names, female);

    const minor = r.chance(0.08);
    const ageYears = minor ? r.int(0, 17) : Math.min(85, 18 + Math.floor(-Math.log(1 - r.next() * 0.999) * 16));
    const birth = new Date(created - ageYears * YEAR - r.int(0, 364) * DAY);
    const birthYear = birth.getUTCFullYear();

    // Where the applicant lives: green-card holders in the United States, a few abroad, most at home.
    const lpr = country.usPermanentResidents === true || r.chance(0.01);
    const home = lpr ? usPlace(r) : r.chance(0.06) ? place(COUNTRY.pick(r), r) : place(country, r);
    const [city, region, postal] = home.city;

    const e1 = ascii(first);
    const e2 = ascii(surname);
    const local = r.pick([`${e1}.${e2}`, `${e1}${e2}`, `${e1[0]}${e2}`, `${e1}_${e2}`, `${e2}.${e1}`]);
    const suffix = r.pick([
      '',
      String(r.int(1, 99)),
      String(birthYear),
      String(birthYear).slice(2),
      String(r.int(100, 9999)),
    ]);
    const email = `${local}${suffix}@${r.pick(country.mailDomains)}`;

    const validity = ageYears < 16 ? 5 : 10;
    const issued = new Date(
      Math.max(created - r.int(30, validity * 365 - 200) * DAY, Math.min(birth.getTime() + 7 * DAY, created - DAY)),
    );
    const expires = new Date(
      Date.UTC(issued.getUTCFullYear() + validity, issued.getUTCMonth(), issued.getUTCDate()) - DAY,
    );
    const passport = r.pattern(country.passport);

    const bornAbroad = r.chance(0.08);
    const birthCountry = bornAbroad ? COUNTRY.pick(r) : country;
    fields.email = email;
    fields.customer_timezone = home.timezone;
    fields.travel_document = TRAVEL_DOCUMENT.pick(r);
    fields.country_on_passport = country.iso3;
    fields.lawful_permanent_resident_of_us = lpr;
    fields.citizen_country = country.name;
    fields.passport_number = passport;
    fields.confirm_passport_number = passport;
    fields.passport_surname = surname;
    fields.passport_first_name = first;
    fields.birth_year = birthYear;
    fields.birth_month = birth.getUTCMonth() + 1;
    fields.birth_date = birth.getUTCDate();
    fields.gender = gender;
    fields.country_of_birth = birthCountry.name;
    fields.city_of_birth = r.pick(birthCountry.cities)[0];
    fields.passport_issue_year = issued.getUTCFullYear();
    fields.passport_issue_month = issued.getUTCMonth() + 1;
    fields.passport_issue_date = issued.getUTCDate();
    fields.passport_exp_year = expires.getUTCFullYear();
    fields.passport_exp_month = expires.getUTCMonth() + 1;
    fields.passport_exp_date = expires.getUTCDate();
    fields.country = home.countryName;
    fields.marital_status = ageYears < 18 ? 'Single' : MARITAL.pick(r);
    fields.appliedd_for_visa_before = false;
    fields.preferred_language = r.chance(home.french) ? 'French' : 'English';
    fields.house_name = String(r.int(1, 240));
    fields.street_name = r.pick(home.streets);
    fields.city = city;
    fields.res_state = region;
    fields.telephone_number = r.pattern(r.pick(home.phones));
    fields.country_code = home.dial;
    fields.applying_for_someone = minor;
    fields.applying_for_minor = minor;
    fields.do_you_know_when_travel_to_canada = false;
    fields.have_you_ever_been_refused_a_visa_or_permit = false;
    fields.have_you_ever_committed_been_arrested = false;
    fields.is_your_contact_with_tuberculosis = false;
    fields.have_you_ever_been_diagnosed_with_tuberculosis = false;
    fields.past_two_years_diagnosed_with_tuberculosis = false;
    fields.have_one_of_these_conditions = false;
    if (postal) fields.res_zip_code = r.pattern(postal);
    if (r.chance(0.35))
      fields.apartment_number = r.chance(0.7) ? String(r.int(1, 60)) : `${r.int(1, 30)}${r.pick(['A', 'B', 'C'])}`;
    if (r.chance(0.08)) fields.street_name_2 = r.pick(['Building 2', 'Floor 3', 'Block C', 'Rear entrance', 'Unit 5']);
    if (r.chance(0.15)) fields.district = r.pick(DISTRICTS);
    if (country.iso3 === 'TWN') {
      const pin = r.pattern(female ? '@2########' : '@1########');
      fields.taiwan_personal_identification_number = pin;
      fields.confirm_taiwan_personal_identification_number = pin;
    }
    if (lpr) {
      const uscis = r.pattern('#########');
      fields.uscis_number = uscis;
      fields.confirm_uscis_number = uscis;
      fields.uscis_exp_year = new Date(created).getUTCFullYear() + r.int(1, 9);
    }
    if (r.chance(0.18)) {
      const uci = r.pattern(r.chance(0.5) ? '########' : '##-####-####');
      fields.appliedd_for_visa_before = true;
      fields.uci_number = uci;
      fields.confirm_uci_number = uci;
    }
    this.employment(fields, names, ageYears, home, created);
    if (r.chance(0.8)) {
      fields.do_you_know_when_travel_to_canada = true;
      // One traveller in eight buys days before the flight (the desk's urgent orders, issue 35).
      fields.travel_to_canada_year = isoDate(created + (r.chance(0.125) ? r.int(1, 4) : r.int(5, 240)) * DAY);
      fields.travel_to_canada_hour = `${pad2(r.int(6, 23))}:${pad2(r.int(0, 11) * 5)}`;
    }
    if (r.chance(0.04)) {
      fields.have_you_ever_been_refused_a_visa_or_permit = true;
      fields.country_that_refused_you_a_visa_or_permit = r.pick(REFUSING_COUNTRIES);
      fields.additional_details = `Visitor visa refused in ${new Date(created).getUTCFullYear() - r.int(2, 9)}; purpose of visit not clear to the officer.`;
    }
    if (r.chance(0.01)) {
      fields.have_you_ever_committed_been_arrested = true;
      fields.please_indicate_where_committed_been_arrested = `Fined for careless driving in ${city}, ${new Date(created).getUTCFullYear() - r.int(3, 15)}.`;
    }
    if (r.chance(0.005)) fields.is_your_contact_with_tuberculosis = true;
    if (minor) {
      // A parent applies for the child: the parent is the representative and the order e-mail is theirs.
      fields.representative_is = 'Family member';
      fields.being_paid = false;
      fields.surname = surname;
      fields.first_name = r.pick(r.chance(0.5) ? names.female : names.male);
      fields.mailing_address = `${fields.house_name} ${fields.street_name}, ${city}`;
      fields.email_address = email;
    } else if (r.chance(0.06)) {
      this.representative(fields, country, home, r);
    }
    return {
      email,
      fullName: `${first} ${surname}`,
      timezone: home.timezone,
      location: `${city}, ${region}, ${home.countryName}`,
    };
  }

  private surname(names: NamePool, female: boolean): string {
    const i = this.rng.int(0, names.surnames.length - 1);
    return (female && names.femaleSurnames?.[i]) || names.surnames[i]!;
  }

  private employment(fields: Row<'orders'>, names: NamePool, age: number, home: Place, created: number): void {
    const r = this.rng;
    const year = new Date(created).getUTCFullYear();
    const [city, region] = home.city;
    let occupation = OCCUPATION.pick(r);
    if (age < 18) occupation = OCCUPATIONS.find((o) => o[0] === 'Student')!;
    else if (age >= 67 && r.chance(0.8)) occupation = OCCUPATIONS.find((o) => o[0] === 'Retired')!;
    if (age < 5) return;
    fields.occupation = occupation[0];
    if (!occupation[2]) return;
    const surname = this.surname(names, false);
    let employer: string;
    if (occupation[0] === 'Student') employer = age < 18 ? `${city} International School` : `University of ${city}`;
    else if (occupation[0] === 'Health occupations')
      employer = r.chance(0.6) ? `${city} General Hospital` : `${surname} Medical Centre`;
    else if (occupation[0].startsWith('Occupations in education'))
      employer = r.chance(0.5) ? `University of ${city}` : `${city} Secondary School`;
    else if (occupation[0] === 'Military/armed forces') employer = `${home.countryName} Armed Forces`;
    else employer = `${surname} ${r.pick(COMPANY_WORDS)} ${home.companySuffix}`;
    fields.job_title = r.pick(occupation[2]);
    fields.employer_or_school_name = employer;
    fields.job_country = home.countryName;
    fields.job_state = region;
    fields.job_city = city;
    fields.working_since = Math.max(year - age + (age < 18 ? 5 : 18), year - r.int(0, 25));
  }

  private representative(fields: Row<'orders'>, country: Country, home: Place, r: Random): void {
    const kind = r.pick(REPRESENTATIVES);
    const paid = kind === 'Travel agent' || kind === 'Immigration consultant';
    const surname = this.surname(country.names, false);
    const first = r.pick(country.names.male);
    fields.applying_for_someone = true;
    fields.representative_is = kind;
    fields.being_paid = paid && r.chance(0.85);
    fields.surname = surname;
    fields.first_name = first;
    fields.email_address = `${ascii(first)}.${ascii(surname)}@${r.pick(country.mailDomains)}`;
    fields.mailing_address = `${r.int(1, 200)} ${r.pick(home.streets)}, ${home.city[0]}`;
    if (home.city[2]) fields.postal_code = r.pattern(home.city[2]);
    if (paid) {
      fields.firm_or_organization = `${surname} ${kind === 'Travel agent' ? 'Travel' : 'Immigration Services'}`;
      if (r.chance(0.2)) fields.fax_number = `+${home.dial} ${r.pattern('#########')}`;
    }
    if (kind === 'Immigration consultant') {
      fields.membership_id = r.pattern('R######');
      fields.province_or_territory = r.pick(CANADIAN_PROVINCES);
    }
  }
}

interface Applicant {
  email: string;
  fullName: string;
  timezone: string;
  location: string;
}

function place(c: Country, r: Random): Place {
  return {
    countryName: c.name,
    dial: c.dial,
    timezone: c.timezone,
    city: r.pick(c.cities),
    streets: c.streets,
    phones: c.phones,
    french: c.french,
    companySuffix: c.companySuffix,
  };
}

function usPlace(r: Random): Place {
  const city = r.pick(UNITED_STATES.cities);
  return {
    countryName: UNITED_STATES.name,
    dial: UNITED_STATES.dial,
    timezone: UNITED_STATES.timezones[city[1]] ?? 'America/New_York',
    city,
    streets: UNITED_STATES.streets,
    phones: UNITED_STATES.phones,
    french: 0,
    companySuffix: 'Inc.',
  };
}
