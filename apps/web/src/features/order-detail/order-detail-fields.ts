// What the order detail sections show (spec §2 "Order detail", §3 "Order details"): a human label for every
// order field, the sections in the spec's order, and how each value reads. A row is shown only when its value
// exists. The label table is typed against the contract's field list, so a new field fails the build until it
// has a label and a place.
import type { ORDER_DETAIL_FIELDS, OrderDetailField, OrderDetails, ProcessStatus } from '@eta/contracts';
import { STATUS_LABELS } from '@eta/contracts/domain';
import { describeTime, formatDateParts, formatTelephone, formatUsEastern, formatUtcDate } from '../../lib/format';

type FieldKind = (typeof ORDER_DETAIL_FIELDS)[OrderDetailField];

/** Every order field with its label and its kind, the kind checked against the contract's. */
export const ORDER_FIELDS: { [F in OrderDetailField]: { label: string; kind: (typeof ORDER_DETAIL_FIELDS)[F] } } = {
  order_id: { label: 'Order ID', kind: 'text' },
  email: { label: 'Email', kind: 'text' },
  landing_site: { label: 'Landing site', kind: 'text' },
  transaction_id: { label: 'Transaction ID', kind: 'text' },
  merchant_name: { label: 'Merchant name', kind: 'text' },
  payment_status: { label: 'Payment status', kind: 'text' },
  amount_cents: { label: 'Amount', kind: 'number' },
  currency: { label: 'Currency', kind: 'text' },
  process_status: { label: 'Process status', kind: 'text' },
  processing_type: { label: 'Processing type', kind: 'text' },
  processing_date: { label: 'Processing date', kind: 'date' },
  assign_date: { label: 'Assign date', kind: 'timestamp' },
  refund_date: { label: 'Refund date', kind: 'timestamp' },
  create_ts: { label: 'Date & Time', kind: 'timestamp' },
  applying_for_someone: { label: 'Applying on behalf of someone else', kind: 'yesNo' },
  applying_for_minor: { label: 'Applying for a minor', kind: 'yesNo' },
  representative_is: { label: 'Representative is', kind: 'text' },
  being_paid: { label: 'Representative is paid', kind: 'yesNo' },
  membership_id: { label: 'Representative membership ID', kind: 'text' },
  province_or_territory: { label: 'Representative province or territory', kind: 'text' },
  surname: { label: 'Representative surname', kind: 'text' },
  first_name: { label: 'Representative given name(s)', kind: 'text' },
  firm_or_organization: { label: 'Representative firm or organization', kind: 'text' },
  mailing_address: { label: 'Representative mailing address', kind: 'text' },
  telephone_number: { label: 'Telephone', kind: 'text' },
  country_code: { label: 'Dialling code', kind: 'text' },
  postal_code: { label: 'Representative postal code', kind: 'text' },
  fax_number: { label: 'Representative fax number', kind: 'text' },
  email_address: { label: 'Representative email', kind: 'text' },
  travel_document: { label: 'Travel document', kind: 'text' },
  country_on_passport: { label: 'Country code on passport', kind: 'text' },
  taiwan_personal_identification_number: { label: 'Taiwan personal identification number', kind: 'text' },
  confirm_taiwan_personal_identification_number: {
    label: 'Confirm Taiwan personal identification number',
    kind: 'text',
  },
  lawful_permanent_resident_of_us: { label: 'Lawful permanent resident of the United States', kind: 'yesNo' },
  uscis_number: { label: 'USCIS number', kind: 'text' },
  confirm_uscis_number: { label: 'Confirm USCIS number', kind: 'text' },
  uscis_exp_year: { label: 'Green card expiry year', kind: 'number' },
  citizen_country: { label: 'Nationality', kind: 'text' },
  passport_number: { label: 'Passport number', kind: 'text' },
  confirm_passport_number: { label: 'Confirm passport number', kind: 'text' },
  passport_surname: { label: 'Surname(s)', kind: 'text' },
  passport_first_name: { label: 'Given name(s)', kind: 'text' },
  birth_year: { label: 'Date of birth', kind: 'number' },
  birth_month: { label: 'Date of birth', kind: 'number' },
  birth_date: { label: 'Date of birth', kind: 'number' },
  gender: { label: 'Gender', kind: 'text' },
  country_of_birth: { label: 'Country of birth', kind: 'text' },
  city_of_birth: { label: 'City/Town of birth', kind: 'text' },
  passport_issue_year: { label: 'Date of issue', kind: 'number' },
  passport_issue_month: { label: 'Date of issue', kind: 'number' },
  passport_issue_date: { label: 'Date of issue', kind: 'number' },
  passport_exp_year: { label: 'Date of expiry', kind: 'number' },
  passport_exp_month: { label: 'Date of expiry', kind: 'number' },
  passport_exp_date: { label: 'Date of expiry', kind: 'number' },
  country: { label: 'Country of residence', kind: 'text' },
  marital_status: { label: 'Marital status', kind: 'text' },
  appliedd_for_visa_before: { label: 'Applied for or obtained a visa or permit for Canada before', kind: 'yesNo' },
  uci_number: { label: 'UCI / previous visa number', kind: 'text' },
  confirm_uci_number: { label: 'Confirm UCI / previous visa number', kind: 'text' },
  occupation: { label: 'Occupation', kind: 'text' },
  job_title: { label: 'Job title', kind: 'text' },
  employer_or_school_name: { label: 'Name of employer or school', kind: 'text' },
  job_country: { label: 'Country', kind: 'text' },
  job_state: { label: 'Province/State', kind: 'text' },
  job_city: { label: 'City/Town', kind: 'text' },
  working_since: { label: 'Since year', kind: 'number' },
  preferred_language: { label: 'Preferred language of correspondence', kind: 'text' },
  apartment_number: { label: 'Apartment/Unit number', kind: 'text' },
  house_name: { label: 'Street address/House number', kind: 'text' },
  street_name: { label: 'Street address/name', kind: 'text' },
  street_name_2: { label: 'Street address/name (line 2)', kind: 'text' },
  city: { label: 'City/Town', kind: 'text' },
  res_state: { label: 'Province/State', kind: 'text' },
  res_zip_code: { label: 'Postal/ZIP code', kind: 'text' },
  district: { label: 'District/Region', kind: 'text' },
  do_you_know_when_travel_to_canada: { label: 'Knows when they will travel to Canada', kind: 'yesNo' },
  travel_to_canada_year: { label: 'Date of travel to Canada', kind: 'date' },
  travel_to_canada_hour: { label: 'Time of travel to Canada', kind: 'text' },
  have_you_ever_been_refused_a_visa_or_permit: {
    label: 'Ever refused a visa or permit, denied entry or ordered to leave Canada or any other country',
    kind: 'yesNo',
  },
  country_that_refused_you_a_visa_or_permit: { label: 'Country that refused', kind: 'text' },
  have_you_ever_committed_been_arrested: {
    label: 'Ever committed, been arrested for, charged with or convicted of any criminal offence',
    kind: 'yesNo',
  },
  please_indicate_where_committed_been_arrested: { label: 'Where, when and what offence', kind: 'text' },
  is_your_contact_with_tuberculosis: {
    label: 'In the past two years, in close contact with a person with tuberculosis',
    kind: 'yesNo',
  },
  have_you_ever_been_diagnosed_with_tuberculosis: { label: 'Ever diagnosed with tuberculosis', kind: 'yesNo' },
  past_two_years_diagnosed_with_tuberculosis: {
    label: 'In the past two years, diagnosed with tuberculosis',
    kind: 'yesNo',
  },
  have_one_of_these_conditions: { label: 'Has one of the listed medical conditions', kind: 'yesNo' },
  additional_details: { label: 'Additional details', kind: 'text' },
  customer_sign: { label: 'Digital signature', kind: 'text' },
  customer_date: { label: 'Signed at', kind: 'timestamp' },
  ip_address: { label: 'IP address', kind: 'text' },
  customer_browser: { label: 'Browser', kind: 'text' },
  customer_timezone: { label: 'Customer time zone', kind: 'text' },
  legal_version: { label: 'Legal texts agreed (version)', kind: 'number' },
};

/** One line of a section: a label and its value as text. */
export interface DetailRow {
  key: string;
  label: string;
  value: string;
  /** How the value is shown beyond plain text. */
  display?: 'signature';
  /** A moment (ISO): shown labelled with its zone and the other zone on hover (issue 22). */
  time?: string;
}

interface RowSpec {
  key: string;
  /** The order fields this row reads (each field has exactly one row). */
  fields: readonly OrderDetailField[];
  label: string;
  value: (order: OrderDetails) => string;
  display?: DetailRow['display'];
  time?: (order: OrderDetails) => string | null;
}

function formatValue(kind: FieldKind, value: unknown): string {
  if (value === undefined || value === null || value === '') return '';
  switch (kind) {
    case 'yesNo':
      return value === true ? 'Yes' : 'No';
    case 'date':
      return formatUtcDate(String(value));
    case 'timestamp':
      return describeTime(String(value), 'utc')?.text ?? '';
    default:
      return String(value);
  }
}

const num = (order: OrderDetails, field: OrderDetailField): number | undefined =>
  typeof order[field] === 'number' ? (order[field] as number) : undefined;
const text = (order: OrderDetails, field: OrderDetailField): string | null =>
  typeof order[field] === 'string' ? (order[field] as string) : null;

/** A row showing one field as its kind reads. */
const field = (name: OrderDetailField, label: string = ORDER_FIELDS[name].label): RowSpec => ({
  key: name,
  fields: [name],
  label,
  value: (order) => formatValue(ORDER_FIELDS[name].kind, order[name]),
  ...(ORDER_FIELDS[name].kind === 'timestamp' ? { time: (order: OrderDetails) => text(order, name) } : {}),
});

/** A date kept as year, month and day numbers. */
const dateParts = (key: string, year: OrderDetailField, month: OrderDetailField, day: OrderDetailField): RowSpec => ({
  key,
  fields: [year, month, day],
  label: ORDER_FIELDS[year].label,
  value: (order) => formatDateParts(num(order, year), num(order, month), num(order, day)),
});

const amount: RowSpec = {
  key: 'amount',
  fields: ['amount_cents', 'currency'],
  label: 'Amount',
  value: (order) => {
    const cents = num(order, 'amount_cents');
    return cents === undefined ? '' : `${(cents / 100).toFixed(2)} ${text(order, 'currency') ?? ''}`.trim();
  },
};

const telephone: RowSpec = {
  key: 'telephone',
  fields: ['telephone_number', 'country_code'],
  label: 'Telephone',
  value: (order) => formatTelephone(text(order, 'country_code'), text(order, 'telephone_number')),
};

const statusLabel = (status: string): string => STATUS_LABELS[status as ProcessStatus] ?? status;

/** The moment the customer signed, as US date and US EST time (America/New_York, 24 h; spec §2, §9). */
const signedAt = (part: 'date' | 'time', label: string): RowSpec => ({
  key: `us_${part}`,
  fields: part === 'date' ? ['customer_date'] : [],
  label,
  value: (order) => formatUsEastern(text(order, 'customer_date'))?.[part] ?? '',
});

export interface SectionSpec {
  id: string;
  title: string;
  rows: readonly RowSpec[];
}

/** The field sections of spec §2, in its order (Email History and Upload Document come before them). */
export const FIELD_SECTIONS: readonly SectionSpec[] = [
  {
    id: 'order-details',
    title: 'Order Details',
    rows: [
      field('order_id'),
      field('create_ts'),
      field('landing_site'),
      field('payment_status'),
      amount,
      field('transaction_id'),
      field('merchant_name'),
      field('processing_date'),
      field('refund_date'),
      field('applying_for_someone'),
      field('applying_for_minor'),
      field('representative_is'),
      field('being_paid'),
      field('membership_id'),
      field('province_or_territory'),
      field('surname'),
      field('first_name'),
      field('firm_or_organization'),
      field('mailing_address'),
      field('postal_code'),
      field('fax_number'),
      field('email_address'),
    ],
  },
  {
    id: 'travel-details',
    title: 'Travel Details',
    rows: [
      field('travel_document'),
      field('country_on_passport'),
      field('citizen_country'),
      field('taiwan_personal_identification_number'),
      field('confirm_taiwan_personal_identification_number'),
      field('lawful_permanent_resident_of_us'),
      field('uscis_number'),
      field('confirm_uscis_number'),
      field('uscis_exp_year'),
      field('do_you_know_when_travel_to_canada'),
      field('travel_to_canada_year'),
      field('travel_to_canada_hour'),
    ],
  },
  {
    id: 'passport-details',
    title: 'Passport details of applicant',
    rows: [
      field('passport_number'),
      field('confirm_passport_number'),
      field('passport_surname'),
      field('passport_first_name'),
      dateParts('birth', 'birth_year', 'birth_month', 'birth_date'),
      field('gender'),
      field('country_of_birth'),
      field('city_of_birth'),
      dateParts('passport_issue', 'passport_issue_year', 'passport_issue_month', 'passport_issue_date'),
      dateParts('passport_expiry', 'passport_exp_year', 'passport_exp_month', 'passport_exp_date'),
    ],
  },
  {
    id: 'personal-details',
    title: 'Personal Details',
    rows: [
      field('country'),
      field('marital_status'),
      field('appliedd_for_visa_before'),
      field('uci_number'),
      field('confirm_uci_number'),
    ],
  },
  {
    id: 'employment',
    title: 'Employment information',
    rows: [
      field('occupation'),
      field('job_title'),
      field('employer_or_school_name'),
      field('job_country'),
      field('job_state'),
      field('job_city'),
      field('working_since'),
    ],
  },
  {
    id: 'contact',
    title: 'Contact information',
    rows: [field('email'), telephone, field('preferred_language')],
  },
  {
    id: 'residence',
    title: 'Residential address',
    rows: [
      field('apartment_number'),
      field('house_name'),
      field('street_name'),
      field('street_name_2'),
      field('city'),
      field('district'),
      field('res_state'),
      field('res_zip_code'),
    ],
  },
  {
    id: 'background',
    title: 'Background Questions',
    rows: [
      field('have_you_ever_been_refused_a_visa_or_permit'),
      field('country_that_refused_you_a_visa_or_permit'),
      field('have_you_ever_committed_been_arrested'),
      field('please_indicate_where_committed_been_arrested'),
      field('is_your_contact_with_tuberculosis'),
      field('have_you_ever_been_diagnosed_with_tuberculosis'),
      field('past_two_years_diagnosed_with_tuberculosis'),
      field('have_one_of_these_conditions'),
      field('additional_details'),
      {
        key: 'process_status',
        fields: ['process_status'],
        label: 'Process status',
        value: (order) => statusLabel(text(order, 'process_status') ?? ''),
      },
      { key: 'assign_to', fields: [], label: 'Assigned to', value: (order) => order.assign_to ?? '' },
      field('assign_date'),
      field('processing_type'),
      { ...field('customer_sign'), display: 'signature' },
      signedAt('date', 'US date'),
      signedAt('time', 'US EST time'),
      field('ip_address'),
      field('customer_browser'),
      field('customer_timezone'),
      field('legal_version'),
    ],
  },
];

/** The rows of a section that have a value. */
export function rowsWithValues(section: SectionSpec, order: OrderDetails): DetailRow[] {
  return section.rows.flatMap((row) => {
    const value = row.value(order);
    const time = row.time?.(order) ?? undefined;
    return value === '' ? [] : [{ key: row.key, label: row.label, value, display: row.display, time }];
  });
}

/** The order fields each section row reads (a test checks every field has its place). */
export const fieldsShown = (): OrderDetailField[] =>
  FIELD_SECTIONS.flatMap((section) => section.rows.flatMap((row) => row.fields));
