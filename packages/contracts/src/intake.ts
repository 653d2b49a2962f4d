// Order intake (DESIGN §4, issue 20): the landing sites' application forms hand over a paid application with
// `POST /api/intake/orders`. The application's rules live here once: the TypeBox schema (types, choices,
// lengths, formats; also the OpenAPI description) and the cross-field rules as plain functions
// (`applicationIssues`), used by the intake call, the CLI import and any form. Field names are spec §3's.
import { IntakePaymentCheck } from './payments.js';
import { Type, type Static, type TSchema } from 'typebox';
import {
  GENDERS,
  MARITAL_STATUSES,
  OCCUPATIONS,
  OCCUPATIONS_WITHOUT_EMPLOYER,
  PREFERRED_LANGUAGES,
  REPRESENTATIVE_KINDS,
  TRAVEL_DOCUMENTS,
  addDays,
  calendarDate,
  findCountry,
  isCurrencyCode,
  isTimeZone,
  parseCalendarDate,
  type Occupation,
} from './application.js';
import { PAYMENT_STATUSES, PROCESSING_TYPES } from './domain.js';
import { Envelope } from './envelope.js';
import { EMAIL_PATTERN, MAX_EMAIL_LENGTH } from './mail.js';

/** One failing field of an application: its path (`passport_number`, `payment.currency`) and what to do. */
export interface FieldIssue {
  field: string;
  message: string;
}

/** The largest signature image, decoded (a PNG or JPEG data URL). */
export const MAX_SIGNATURE_BYTES = 200 * 1024;
/** A Future order's processing date is at most this many days ahead. */
export const MAX_FUTURE_DAYS = 365;
/** A travel date is at most this many years ahead (an eTA is valid for up to five). */
export const MAX_TRAVEL_YEARS = 5;
/** How far ahead of this server's clock a landing site's consent time may be. */
const CLOCK_SKEW_MS = 10 * 60_000;
/** The Idempotency-Key header: printable ASCII, 1-255 characters. */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7e]{1,255}$';

const text = (maxLength: number, message: string, pattern = '\\S') =>
  Type.String({ maxLength, pattern, errorMessage: message });
const optionalText = (maxLength: number, message: string, pattern = '\\S') =>
  Type.Optional(text(maxLength, message, pattern));
/** One of a list, typed as that list's union (TypeBox's Enum reads as plain string). */
const choice = <T extends readonly string[]>(values: T, message: string) =>
  Type.Unsafe<T[number]>(Type.Enum(values, { errorMessage: `${message}: one of ${values.join(', ')}.` }));
const yesNo = (message: string) => Type.Boolean({ errorMessage: message });
const year = (minimum: number, maximum: number, message: string) =>
  Type.Integer({ minimum, maximum, errorMessage: message });
const month = (message: string) => Type.Integer({ minimum: 1, maximum: 12, errorMessage: message });
const day = (message: string) => Type.Integer({ minimum: 1, maximum: 31, errorMessage: message });
const country = (message: string) => text(100, `${message} (its English name or ISO code).`);
const email = (message: string) =>
  Type.String({ maxLength: MAX_EMAIL_LENGTH, pattern: EMAIL_PATTERN, errorMessage: message });

/** 4 to 20 letters or digits; spaces a person types between them are taken out when stored. */
const PASSPORT_NUMBER = '^\\s*[A-Za-z0-9]( ?[A-Za-z0-9]){3,19}\\s*$';
const USCIS_NUMBER = '^\\s*A?[0-9]{7,9}\\s*$';
const UCI_NUMBER = '^\\s*([0-9]{8}|[0-9]{10}|[0-9]{2}-[0-9]{4}-[0-9]{4})\\s*$';
const TAIWAN_ID = '^\\s*[A-Za-z][0-9]{9}\\s*$';
const TELEPHONE = '^\\s*[0-9][0-9 ()./-]{3,24}\\s*$';
const DIALLING_CODE = '^\\s*\\+?[0-9]{1,4}\\s*$';
const DATE = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';

/** The application fields of spec §3, by section. Years' wide ranges are narrowed by the rules below. */
const applicationFields = {
  // Representative: required when someone else applies (applying_for_someone).
  applying_for_someone: yesNo('Please say whether someone else is applying for the applicant (true or false).'),
  applying_for_minor: Type.Optional(yesNo('Please say whether the applicant is a minor (true or false).')),
  representative_is: Type.Optional(choice(REPRESENTATIVE_KINDS, 'Please choose who the representative is')),
  being_paid: Type.Optional(yesNo('Please say whether the representative is paid (true or false).')),
  membership_id: optionalText(50, "Please enter the representative's membership ID (at most 50 characters)."),
  province_or_territory: optionalText(100, "Please enter the representative's province or territory."),
  surname: optionalText(100, "Please enter the representative's surname (at most 100 characters)."),
  first_name: optionalText(100, "Please enter the representative's given name (at most 100 characters)."),
  firm_or_organization: optionalText(200, "Please enter the representative's firm or organization."),
  mailing_address: optionalText(300, "Please enter the representative's mailing address (at most 300 characters)."),
  postal_code: optionalText(20, "Please enter the representative's postal code (at most 20 characters)."),
  fax_number: optionalText(30, "Please enter the representative's fax number (at most 30 characters)."),
  email_address: Type.Optional(email("Please enter the representative's e-mail address.")),
  // Contact: the applicant's telephone with its dialling code (lists show both).
  telephone_number: text(25, 'Please enter the telephone number (digits, at least 4).', TELEPHONE),
  country_code: text(5, 'Please enter the telephone dialling code (1 to 4 digits, e.g. 44).', DIALLING_CODE),
  preferred_language: choice(PREFERRED_LANGUAGES, 'Please choose the preferred language'),
  // Travel document
  travel_document: choice(TRAVEL_DOCUMENTS, 'Please choose the travel document'),
  country_on_passport: country('Please enter the country of the passport'),
  taiwan_personal_identification_number: optionalText(
    12,
    'Please enter the Taiwan personal identification number (a letter and 9 digits).',
    TAIWAN_ID,
  ),
  confirm_taiwan_personal_identification_number: optionalText(
    12,
    'Please confirm the Taiwan personal identification number.',
    TAIWAN_ID,
  ),
  lawful_permanent_resident_of_us: yesNo(
    'Please say whether the applicant is a lawful permanent resident of the United States (true or false).',
  ),
  uscis_number: optionalText(12, 'Please enter the USCIS number (7 to 9 digits).', USCIS_NUMBER),
  confirm_uscis_number: optionalText(12, 'Please confirm the USCIS number.', USCIS_NUMBER),
  uscis_exp_year: Type.Optional(year(2000, 2100, 'Please enter the year the green card expires.')),
  citizen_country: country('Please enter the country of citizenship'),
  // Passport
  passport_number: text(24, 'Please enter the passport number (4 to 20 letters or digits).', PASSPORT_NUMBER),
  confirm_passport_number: text(24, 'Please confirm the passport number.', PASSPORT_NUMBER),
  passport_surname: text(100, 'Please enter the surname as in the passport (at most 100 characters).'),
  passport_first_name: optionalText(100, 'Please enter the given names as in the passport (at most 100 characters).'),
  birth_year: year(1900, 2100, 'Please enter the year of birth.'),
  birth_month: month('Please enter the month of birth (1 to 12).'),
  birth_date: day('Please enter the day of birth (1 to 31).'),
  gender: choice(GENDERS, 'Please choose the gender'),
  country_of_birth: country('Please enter the country of birth'),
  city_of_birth: text(100, 'Please enter the city of birth (at most 100 characters).'),
  passport_issue_year: year(1950, 2100, 'Please enter the year the passport was issued.'),
  passport_issue_month: month('Please enter the month the passport was issued (1 to 12).'),
  passport_issue_date: day('Please enter the day the passport was issued (1 to 31).'),
  passport_exp_year: year(1950, 2100, 'Please enter the year the passport expires.'),
  passport_exp_month: month('Please enter the month the passport expires (1 to 12).'),
  passport_exp_date: day('Please enter the day the passport expires (1 to 31).'),
  // Personal
  country: country('Please enter the country of residence'),
  marital_status: choice(MARITAL_STATUSES, 'Please choose the marital status'),
  appliedd_for_visa_before: yesNo('Please say whether the applicant applied to come to Canada before (true or false).'),
  uci_number: optionalText(14, 'Please enter the UCI (8 or 10 digits).', UCI_NUMBER),
  confirm_uci_number: optionalText(14, 'Please confirm the UCI.', UCI_NUMBER),
  // Employment: required unless the occupation has no employer (retired, homemaker, unemployed).
  occupation: choice(OCCUPATIONS, 'Please choose the occupation'),
  job_title: optionalText(100, 'Please enter the job title (at most 100 characters).'),
  employer_or_school_name: optionalText(200, 'Please enter the employer or school (at most 200 characters).'),
  job_country: Type.Optional(country('Please enter the country of the job')),
  job_state: optionalText(100, 'Please enter the province or state of the job (at most 100 characters).'),
  job_city: optionalText(100, 'Please enter the city of the job (at most 100 characters).'),
  working_since: Type.Optional(year(1900, 2100, 'Please enter the year the applicant started this job.')),
  // Residential address
  apartment_number: optionalText(20, 'Please enter the apartment or unit (at most 20 characters).'),
  house_name: text(100, 'Please enter the street number or house name (at most 100 characters).'),
  street_name: text(200, 'Please enter the street (at most 200 characters).'),
  street_name_2: optionalText(200, 'Please enter the second address line (at most 200 characters).'),
  city: text(100, 'Please enter the city or town (at most 100 characters).'),
  res_state: optionalText(100, 'Please enter the province, state or region (at most 100 characters).'),
  res_zip_code: optionalText(20, 'Please enter the postal code (at most 20 characters).'),
  district: optionalText(100, 'Please enter the district (at most 100 characters).'),
  // Travel plan: the date (YYYY-MM-DD) and time (HH:MM) are required when the applicant knows them.
  do_you_know_when_travel_to_canada: yesNo('Please say whether the travel date is known (true or false).'),
  travel_to_canada_year: Type.Optional(
    Type.String({ pattern: DATE, errorMessage: 'Please enter the travel date as YYYY-MM-DD.' }),
  ),
  travel_to_canada_hour: Type.Optional(
    Type.String({
      pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
      errorMessage: 'Please enter the travel time as HH:MM (24-hour).',
    }),
  ),
  // Background: a yes needs its details.
  have_you_ever_been_refused_a_visa_or_permit: yesNo('Please answer the question about refused visas (true or false).'),
  country_that_refused_you_a_visa_or_permit: Type.Optional(
    country('Please enter the country that refused the visa or permit'),
  ),
  have_you_ever_committed_been_arrested: yesNo('Please answer the question about arrests (true or false).'),
  please_indicate_where_committed_been_arrested: optionalText(
    1000,
    'Please say where and when (at most 1000 characters).',
  ),
  is_your_contact_with_tuberculosis: yesNo(
    'Please answer the question about contact with tuberculosis (true or false).',
  ),
  have_you_ever_been_diagnosed_with_tuberculosis: yesNo(
    'Please answer the question about a tuberculosis diagnosis (true or false).',
  ),
  past_two_years_diagnosed_with_tuberculosis: yesNo(
    'Please answer the question about tuberculosis in the past two years (true or false).',
  ),
  have_one_of_these_conditions: yesNo('Please answer the question about medical conditions (true or false).'),
  additional_details: optionalText(2000, 'Please keep the additional details to at most 2000 characters.'),
} satisfies Record<string, TSchema>;

export const IntakePayment = Type.Object(
  {
    status: choice(PAYMENT_STATUSES, 'Please give the payment status'),
    amount_cents: Type.Integer({
      minimum: 0,
      maximum: 100_000_000,
      errorMessage: 'Please give the amount paid in cents (a whole number, e.g. 8900).',
    }),
    currency: text(3, 'Please give the currency as its ISO 4217 code (e.g. USD).', '^[A-Za-z]{3}$'),
    gateway: text(50, 'Please name the payment gateway (Stripe, PayPal or Authorize.Net).'),
    transaction_id: optionalText(200, "Please give the gateway's transaction id (at most 200 characters)."),
    merchant_name: optionalText(200, 'Please give the merchant name (at most 200 characters).'),
  },
  { additionalProperties: false, errorMessage: 'Please give the payment: status, amount_cents, currency, gateway.' },
);
export type IntakePayment = Static<typeof IntakePayment>;

export const IntakeConsent = Type.Object(
  {
    agreed_at: Type.String({
      pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,9})?)?(Z|[+-][0-9]{2}:?[0-9]{2})$',
      maxLength: 40,
      errorMessage: 'Please give when the customer agreed, as an ISO 8601 time (e.g. 2026-11-25T10:15:00Z).',
    }),
    ip_address: text(45, "Please give the customer's IP address (IPv4 or IPv6)."),
    customer_browser: text(1000, "Please give the customer's browser (its user agent, at most 1000 characters)."),
    customer_timezone: text(64, "Please give the customer's time zone as an IANA name (e.g. Europe/Paris)."),
    legal_version: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        errorMessage: 'Please give the version of the legal texts the customer was shown (a whole number).',
      }),
    ),
  },
  {
    additionalProperties: false,
    errorMessage: 'Please give the consent: agreed_at, ip_address, customer_browser, customer_timezone.',
  },
);
export type IntakeConsent = Static<typeof IntakeConsent>;

export const IntakeOrderBody = Type.Object(
  {
    email: email('Please enter a valid e-mail address for the order.'),
    /** The landing site is the key's; naming another one is refused (403). */
    landing_site: Type.Optional(Type.String({ maxLength: 40, errorMessage: 'landing_site is a landing site key.' })),
    processing_type: choice(PROCESSING_TYPES, 'Please choose the processing type'),
    processing_date: Type.Optional(
      Type.String({ pattern: DATE, errorMessage: 'Please give the processing date as YYYY-MM-DD.' }),
    ),
    ...applicationFields,
    payment: IntakePayment,
    consent: IntakeConsent,
    signature: Type.String({
      maxLength: Math.ceil((MAX_SIGNATURE_BYTES * 4) / 3) + 40,
      pattern: '^data:image/(png|jpeg);base64,[A-Za-z0-9+/]+={0,2}$',
      errorMessage: "Please give the customer's signature as a PNG or JPEG data URL of at most 200 KB.",
    }),
  },
  { additionalProperties: false },
);
export type IntakeOrderBody = Static<typeof IntakeOrderBody>;

const UNKNOWN_FIELD =
  'This field is not part of the application; please check its name (field names are listed in the API documentation).';
export const INTAKE_MESSAGES = {
  unknownField: UNKNOWN_FIELD,
  idempotencyKeyRequired:
    'The Idempotency-Key header is required (1 to 255 printable characters, the same for every retry of one application).',
  idempotencyConflict:
    'This Idempotency-Key was used before with a different application. Use a new key for a new application.',
  unknownCountry: 'is not a country we know: use its English name or its ISO 3166 code.',
} as const;

const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const same = (a: unknown, b: unknown) =>
  typeof a === 'string' &&
  typeof b === 'string' &&
  a.replace(/\s+/g, '').toUpperCase() === b.replace(/\s+/g, '').toUpperCase();
const year0 = (today: string) => Number(today.slice(0, 4));

/** An IPv4 or IPv6 address (as written by a server log or X-Forwarded-For). */
export function isIpAddress(value: string): boolean {
  const v4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
  if (v4.test(value)) return true;
  if (!/^[0-9A-Fa-f:.]{2,45}$/.test(value) || !value.includes(':')) return false;
  try {
    new URL(`http://[${value}]/`);
    return true;
  } catch {
    return false;
  }
}

/**
 * The rules that tie fields together (conditional answers, copies, dates that exist, countries, currencies),
 * for a body whose fields may also be individually wrong: a rule speaks only when the fields it reads have the
 * right type, and never about a field `skip` already names. Dates are judged by `now`'s UTC day.
 */
export function applicationIssues(
  body: Record<string, unknown>,
  now: Date,
  skip: ReadonlySet<string> = new Set(),
): FieldIssue[] {
  const today = now.toISOString().slice(0, 10);
  const issues: FieldIssue[] = [];
  const add = (field: string, message: string) => {
    if (!skip.has(field) && !issues.some((i) => i.field === field)) issues.push({ field, message });
  };
  /** A copy must equal its original, once the original itself is well formed. */
  const copy = (original: string, confirm: string, message: string) => {
    if (!skip.has(original) && (isText(b[original]) || isText(b[confirm])) && !same(b[original], b[confirm])) {
      add(confirm, message);
    }
  };
  const need = (field: string, message: string) => {
    if (!isText(body[field]) && typeof body[field] !== 'number' && typeof body[field] !== 'boolean')
      add(field, message);
  };
  const b = body;
  const thisYear = year0(today);

  // Processing: a Future order names the day processing may start, after today and at most a year ahead.
  if (b.processing_type === 'Future') {
    const date = typeof b.processing_date === 'string' ? parseCalendarDate(b.processing_date) : undefined;
    if (!date || date <= today || date > addDays(today, MAX_FUTURE_DAYS)) {
      add(
        'processing_date',
        `A Future order needs a processing date after today and at most ${MAX_FUTURE_DAYS} days ahead (YYYY-MM-DD).`,
      );
    }
  } else if (b.processing_date !== undefined) {
    add('processing_date', 'Only a Future order has a processing date; leave it out for Standard and Priority.');
  }

  // Countries are checked against the list (names or ISO codes).
  for (const field of [
    'country_on_passport',
    'citizen_country',
    'country_of_birth',
    'country',
    'job_country',
    'country_that_refused_you_a_visa_or_permit',
  ]) {
    const value = b[field];
    if (typeof value === 'string' && value.trim() && !findCountry(value))
      add(field, `"${value.trim()}" ${INTAKE_MESSAGES.unknownCountry}`);
  }

  // Someone else applying: who they are and how to reach them.
  if (b.applying_for_someone === true) {
    need('representative_is', 'Someone else is applying: please choose who the representative is.');
    need('being_paid', 'Someone else is applying: please say whether the representative is paid (true or false).');
    need('surname', "Someone else is applying: please enter the representative's surname.");
    need('first_name', "Someone else is applying: please enter the representative's given name.");
    need('mailing_address', "Someone else is applying: please enter the representative's mailing address.");
    need('email_address', "Someone else is applying: please enter the representative's e-mail address.");
  } else if (b.applying_for_someone === false && b.applying_for_minor === true) {
    add(
      'applying_for_minor',
      'An application for a minor is made by a parent or guardian: set applying_for_someone to true.',
    );
  }

  // Copies equal their originals.
  copy('passport_number', 'confirm_passport_number', 'The passport numbers do not match.');
  const countryOnPassport = typeof b.country_on_passport === 'string' ? findCountry(b.country_on_passport) : undefined;
  if (countryOnPassport?.alpha3 === 'TWN') {
    need('taiwan_personal_identification_number', 'A Taiwan passport needs the personal identification number.');
    need('confirm_taiwan_personal_identification_number', 'Please confirm the Taiwan personal identification number.');
  }
  copy(
    'taiwan_personal_identification_number',
    'confirm_taiwan_personal_identification_number',
    'The Taiwan personal identification numbers do not match.',
  );
  if (b.lawful_permanent_resident_of_us === true) {
    need('uscis_number', 'A lawful permanent resident of the United States needs the USCIS number.');
    need('confirm_uscis_number', 'Please confirm the USCIS number.');
    need('uscis_exp_year', 'A lawful permanent resident of the United States needs the year the green card expires.');
  }
  copy('uscis_number', 'confirm_uscis_number', 'The USCIS numbers do not match.');
  if (typeof b.uscis_exp_year === 'number' && (b.uscis_exp_year < thisYear || b.uscis_exp_year > thisYear + 15)) {
    add('uscis_exp_year', `The green card's expiry year must be from ${thisYear} to ${thisYear + 15}.`);
  }
  copy('uci_number', 'confirm_uci_number', 'The UCI numbers do not match.');

  // Dates exist, in the right order: born, passport issued (both in the past), passport valid past the trip.
  // A date whose parts are each well formed (a part already refused is named once, not again as the date).
  const dateOf = (prefix: string, dayField: string) => {
    const parts = [`${prefix}_year`, `${prefix}_month`, dayField];
    const [y, m, d] = parts.map((p) => b[p]);
    if (parts.some((p) => skip.has(p)) || typeof y !== 'number' || typeof m !== 'number' || typeof d !== 'number') {
      return undefined;
    }
    return calendarDate(y, m, d) ?? 'missing';
  };
  const birthDate = dateOf('birth', 'birth_date');
  if (birthDate === 'missing') add('birth_date', 'The date of birth does not exist.');
  else if (birthDate && birthDate >= today) add('birth_date', 'The date of birth must be in the past.');
  const birth = birthDate === 'missing' ? undefined : birthDate;
  const issuedDate = dateOf('passport_issue', 'passport_issue_date');
  if (issuedDate === 'missing') add('passport_issue_date', 'The passport issue date does not exist.');
  else if (issuedDate && issuedDate > today) add('passport_issue_date', 'The passport issue date must be in the past.');
  else if (issuedDate && birth && issuedDate < birth) {
    add('passport_issue_date', 'The passport cannot have been issued before the date of birth.');
  }
  const issued = issuedDate === 'missing' ? undefined : issuedDate;
  const travel =
    b.do_you_know_when_travel_to_canada === true && typeof b.travel_to_canada_year === 'string'
      ? parseCalendarDate(b.travel_to_canada_year)
      : undefined;
  const expires = dateOf('passport_exp', 'passport_exp_date');
  if (expires === 'missing') add('passport_exp_date', 'The passport expiry date does not exist.');
  else if (expires && expires <= today)
    add('passport_exp_date', 'The passport has expired: an eTA needs a valid passport.');
  else if (expires && travel && expires < travel)
    add('passport_exp_date', 'The passport expires before the travel date.');
  else if (expires && issued && expires <= issued) {
    add('passport_exp_date', 'The passport expiry date must be after its issue date.');
  }

  // Employment details, unless the occupation has no employer.
  if (typeof b.occupation === 'string' && !OCCUPATIONS_WITHOUT_EMPLOYER.includes(b.occupation as Occupation)) {
    const because = `The occupation "${b.occupation}" needs`;
    need('job_title', `${because} the job title.`);
    need('employer_or_school_name', `${because} the employer or school.`);
    need('job_country', `${because} the country of the job.`);
    need('job_city', `${because} the city of the job.`);
    need('working_since', `${because} the year the applicant started.`);
  }
  if (typeof b.working_since === 'number') {
    const from = typeof b.birth_year === 'number' ? b.birth_year : 1900;
    if (b.working_since < from || b.working_since > thisYear) {
      add('working_since', `The year the applicant started must be from ${from} to ${thisYear}.`);
    }
  }

  // Travel plan.
  if (b.do_you_know_when_travel_to_canada === true) {
    const latest = addDays(today, 366 * MAX_TRAVEL_YEARS);
    if (typeof b.travel_to_canada_year !== 'string')
      add('travel_to_canada_year', 'The travel date is known: please enter it as YYYY-MM-DD.');
    else if (!travel) add('travel_to_canada_year', 'The travel date does not exist.');
    else if (travel < today || travel > latest) {
      add('travel_to_canada_year', `The travel date must be from today to ${MAX_TRAVEL_YEARS} years ahead.`);
    }
    need('travel_to_canada_hour', 'The travel date is known: please enter the time as HH:MM.');
  }

  // Background: a yes needs its details.
  if (b.have_you_ever_been_refused_a_visa_or_permit === true) {
    need('country_that_refused_you_a_visa_or_permit', 'A refused visa or permit needs the country that refused it.');
  }
  if (b.have_you_ever_committed_been_arrested === true) {
    need('please_indicate_where_committed_been_arrested', 'An arrest or offence needs where and when it happened.');
  }

  // Payment and consent facts.
  const payment = b.payment as Record<string, unknown> | undefined;
  if (payment && typeof payment === 'object') {
    if (
      typeof payment.currency === 'string' &&
      /^[A-Za-z]{3}$/.test(payment.currency) &&
      !isCurrencyCode(payment.currency.toUpperCase())
    ) {
      add('payment.currency', `"${payment.currency}" is not an ISO 4217 currency code.`);
    }
    if (payment.status === 'Success' && !isText(payment.transaction_id)) {
      add('payment.transaction_id', "A successful payment needs the gateway's transaction id.");
    }
  }
  const consent = b.consent as Record<string, unknown> | undefined;
  if (consent && typeof consent === 'object') {
    if (typeof consent.agreed_at === 'string') {
      const at = Date.parse(consent.agreed_at);
      if (Number.isNaN(at)) add('consent.agreed_at', 'The consent time is not a valid ISO 8601 time.');
      else if (at > now.getTime() + CLOCK_SKEW_MS) add('consent.agreed_at', 'The consent time is in the future.');
      else if (at < Date.UTC(2000, 0, 1)) add('consent.agreed_at', 'The consent time is too far in the past.');
    }
    if (typeof consent.ip_address === 'string' && !isIpAddress(consent.ip_address.trim())) {
      add('consent.ip_address', `"${consent.ip_address}" is not an IPv4 or IPv6 address.`);
    }
    if (typeof consent.customer_timezone === 'string' && !isTimeZone(consent.customer_timezone.trim())) {
      add('consent.customer_timezone', `"${consent.customer_timezone}" is not an IANA time zone (e.g. Europe/Paris).`);
    }
  }
  return issues;
}

/** Spec-named fields of the application, as the order detail page names them. */
export const APPLICATION_FIELD_NAMES = Object.keys(applicationFields) as (keyof typeof applicationFields)[];

/** A tiny valid PNG (one transparent pixel): the documentation's signature. */
const EXAMPLE_SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A complete, valid application relative to `today` ('YYYY-MM-DD'): the API documentation's example. */
export function intakeExample(today: string): IntakeOrderBody {
  const y = year0(today);
  return {
    email: 'maria.garcia@example.com',
    processing_type: 'Standard',
    applying_for_someone: false,
    applying_for_minor: false,
    telephone_number: '612 345 678',
    country_code: '34',
    preferred_language: 'English',
    travel_document: 'Passport - ordinary/regular',
    country_on_passport: 'ESP',
    lawful_permanent_resident_of_us: false,
    citizen_country: 'Spain',
    passport_number: 'PAA123456',
    confirm_passport_number: 'PAA123456',
    passport_surname: 'García López',
    passport_first_name: 'María',
    birth_year: 1988,
    birth_month: 4,
    birth_date: 17,
    gender: 'Female',
    country_of_birth: 'Spain',
    city_of_birth: 'Sevilla',
    passport_issue_year: y - 2,
    passport_issue_month: 3,
    passport_issue_date: 2,
    passport_exp_year: y + 8,
    passport_exp_month: 3,
    passport_exp_date: 1,
    country: 'Spain',
    marital_status: 'Married',
    appliedd_for_visa_before: false,
    occupation: 'Health occupations',
    job_title: 'Registered Nurse',
    employer_or_school_name: 'Hospital Universitario Virgen del Rocío',
    job_country: 'Spain',
    job_state: 'Andalucía',
    job_city: 'Sevilla',
    working_since: 2015,
    house_name: '12',
    street_name: 'Calle Sierpes',
    apartment_number: '3B',
    city: 'Sevilla',
    res_state: 'Andalucía',
    res_zip_code: '41004',
    do_you_know_when_travel_to_canada: true,
    travel_to_canada_year: addDays(today, 60),
    travel_to_canada_hour: '14:30',
    have_you_ever_been_refused_a_visa_or_permit: false,
    have_you_ever_committed_been_arrested: false,
    is_your_contact_with_tuberculosis: false,
    have_you_ever_been_diagnosed_with_tuberculosis: false,
    past_two_years_diagnosed_with_tuberculosis: false,
    have_one_of_these_conditions: false,
    payment: {
      status: 'Success',
      amount_cents: 8900,
      currency: 'USD',
      gateway: 'Stripe',
      transaction_id: 'pi_3QxExample0001',
      merchant_name: 'CANADA ETA ONLINE',
    },
    consent: {
      agreed_at: `${addDays(today, -1)}T09:41:07Z`,
      ip_address: '83.45.120.17',
      customer_browser:
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      customer_timezone: 'Europe/Madrid',
      legal_version: 1,
    },
    signature: EXAMPLE_SIGNATURE,
  };
}

export const IntakeOrderResult = Type.Object({
  order_id: Type.String({ examples: ['ETA-482913706'] }),
  /** The customer portal's page for this order (branded for its landing site). */
  tracking_url: Type.String(),
  /** What the gateway said of the payment (issue 21): only a verified Success is worked by the desk. */
  payment: Type.Optional(IntakePaymentCheck),
});
export type IntakeOrderResult = Static<typeof IntakeOrderResult>;
export const IntakeOrderResponse = Envelope(IntakeOrderResult);
/** A refused application: every failing field as { field, message } (VALIDATION_FAILED; other 400s name one field). */
export const IntakeValidationFailure = Type.Object({
  status: Type.Literal(0),
  code: Type.String({ examples: ['VALIDATION_FAILED'] }),
  message: Type.String(),
  errors: Type.Optional(
    Type.Union([
      Type.Array(Type.Object({ field: Type.String(), message: Type.String() })),
      Type.Record(Type.String(), Type.String()),
    ]),
  ),
});

// Administration (Admin): landing sites, their versioned legal texts and their intake keys.

export const LegalTextVersion = Type.Object({
  version: Type.Integer(),
  disclaimer: Type.String(),
  fee_text: Type.String(),
  created_at: Type.String(),
  /** Who saved it; absent for the texts a site started with. */
  created_by: Type.Optional(Type.String()),
});
export type LegalTextVersion = Static<typeof LegalTextVersion>;

export const IntakeKeyInfo = Type.Object({
  /** The key's public part (the first characters of the key); the secret is never shown again. */
  id: Type.String(),
  created_at: Type.String(),
  created_by: Type.Optional(Type.String()),
  last_used_at: Type.Optional(Type.String()),
  orders: Type.Integer(),
  /** When a rotated key stops working (a grace period); absent while it is the current key. */
  retires_at: Type.Optional(Type.String()),
});
export type IntakeKeyInfo = Static<typeof IntakeKeyInfo>;

export const LandingSiteAdmin = Type.Object({
  key: Type.String(),
  display_name: Type.String(),
  logo_url: Type.String(),
  portal_url: Type.Optional(Type.String()),
  mail_sender: Type.String(),
  footer_contact: Type.String(),
  support_phone: Type.Optional(Type.String()),
  menu_links: Type.Array(Type.Object({ label: Type.String(), url: Type.String() })),
  /** The site's own version: bumped by every change of its branding or logo (optimistic, as orders'). */
  version: Type.Integer(),
  legal: LegalTextVersion,
  /** Every version, newest first, without its texts (GET …/legal/:version reads one). */
  legalHistory: Type.Array(Type.Omit(LegalTextVersion, ['disclaimer', 'fee_text'])),
  /** Keys that still work: the current one and any rotated one in its grace period. */
  intakeKeys: Type.Array(IntakeKeyInfo),
});
export type LandingSiteAdmin = Static<typeof LandingSiteAdmin>;
export const LandingSiteListResponse = Envelope(Type.Array(LandingSiteAdmin));

export const LandingSiteKeyParams = Type.Object({ key: Type.String({ pattern: '^[a-z0-9-]{1,40}$' }) });
export const LegalVersionParams = Type.Object({
  key: Type.String({ pattern: '^[a-z0-9-]{1,40}$' }),
  version: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
});
export const LegalTextResponse = Envelope(LegalTextVersion);

/** The longest grace period a rotated key may keep working: a week. */
export const MAX_KEY_GRACE_MINUTES = 7 * 24 * 60;
export const IntakeKeyBody = Type.Object({
  /** Minutes the previous key keeps working (0: it stops at once). */
  graceMinutes: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_KEY_GRACE_MINUTES,
      errorMessage: `The grace period is 0 to ${MAX_KEY_GRACE_MINUTES} minutes.`,
    }),
  ),
});
export type IntakeKeyBody = Static<typeof IntakeKeyBody>;
export const IntakeKeyCreated = Type.Object({
  /** The whole key: shown this once, stored only as a hash. */
  intakeKey: Type.String(),
  id: Type.String(),
  /** Earlier keys and when each stops working. */
  retiring: Type.Array(Type.Object({ id: Type.String(), retires_at: Type.String() })),
});
export type IntakeKeyCreated = Static<typeof IntakeKeyCreated>;
export const IntakeKeyResponse = Envelope(IntakeKeyCreated);

export const LEGAL_TEXT_MAX_LENGTH = 20_000;
export const LEGAL_MESSAGES = {
  disclaimer: 'Please enter the disclaimer text.',
  feeText: 'Please enter the fee text.',
  tooLong: `The text may be at most ${LEGAL_TEXT_MAX_LENGTH} characters.`,
} as const;
export const SaveLegalTextBody = Type.Object({
  disclaimer: Type.String({
    maxLength: LEGAL_TEXT_MAX_LENGTH,
    pattern: '\\S',
    errorMessage: { default: LEGAL_MESSAGES.disclaimer, maxLength: LEGAL_MESSAGES.tooLong },
  }),
  fee_text: Type.String({
    maxLength: LEGAL_TEXT_MAX_LENGTH,
    pattern: '\\S',
    errorMessage: { default: LEGAL_MESSAGES.feeText, maxLength: LEGAL_MESSAGES.tooLong },
  }),
});
export type SaveLegalTextBody = Static<typeof SaveLegalTextBody>;
export const SaveLegalTextResponse = Envelope(Type.Object({ version: Type.Integer() }));
