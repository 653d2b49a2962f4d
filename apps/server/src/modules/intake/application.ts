// An application as the intake call and the CLI import receive it: checked against the contract's schema with
// every failing field named (Ajv with allErrors, the schema's own wording) plus the contract's cross-field rules,
// the signature judged by its content, and the checked body turned into the order's columns.
import { fileTypeFromBuffer } from 'file-type';
import { Ajv, type ErrorObject } from 'ajv';
import {
  INTAKE_MESSAGES,
  IntakeOrderBody,
  MAX_SIGNATURE_BYTES,
  OCCUPATIONS_WITHOUT_EMPLOYER,
  applicationIssues,
  findCountry,
  type FieldIssue,
} from '@eta/contracts';
import type { NewOrder } from '../../db/schema.js';

const ajv = new Ajv({ allErrors: true, coerceTypes: false, useDefaults: false, verbose: true }).addKeyword(
  'errorMessage',
);
const checkSchema = ajv.compile(IntakeOrderBody);

interface SchemaWithWording {
  errorMessage?: unknown;
  properties?: Record<string, SchemaWithWording>;
}

/** The contract's wording for a failed keyword (one text, or one per keyword with a default), else Ajv's. */
function wording(schema: SchemaWithWording | undefined, keyword: string, fallback: string): string {
  const text = schema?.errorMessage;
  if (typeof text === 'string') return text;
  if (text && typeof text === 'object') {
    const byKeyword = text as Record<string, unknown>;
    const chosen = byKeyword[keyword] ?? byKeyword.default;
    if (typeof chosen === 'string') return chosen;
  }
  return fallback;
}

function schemaIssue(error: ErrorObject): FieldIssue {
  const path = error.instancePath.split('/').filter(Boolean).join('.');
  const parent = error.parentSchema as SchemaWithWording | undefined;
  const child = (name: string) => (path ? `${path}.${name}` : name);
  if (error.keyword === 'required') {
    const name = String(error.params.missingProperty);
    return { field: child(name), message: wording(parent?.properties?.[name], 'required', `${name} is required.`) };
  }
  if (error.keyword === 'additionalProperties') {
    return { field: child(String(error.params.additionalProperty)), message: INTAKE_MESSAGES.unknownField };
  }
  return {
    field: path || 'request',
    message: wording(parent, error.keyword, `${path} ${error.message ?? 'is invalid'}.`),
  };
}

/** null and blank text mean "not given": a form's empty optional field is not an error, a required one is missing. */
function withoutBlanks(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === null || (typeof v === 'string' && v.trim() === '')) continue;
    out[key] =
      (key === 'payment' || key === 'consent') && v && typeof v === 'object' && !Array.isArray(v)
        ? withoutBlanks(v as Record<string, unknown>)
        : v;
  }
  return out;
}

export type CheckedApplication = { issues: FieldIssue[] } & ({ ok: true; body: IntakeOrderBody } | { ok: false });

/** Every failing field of an application at once: the schema's findings first, then the cross-field rules'. */
export function checkApplication(raw: unknown, now: Date): CheckedApplication {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, issues: [{ field: 'request', message: 'The body must be a JSON object (the application).' }] };
  }
  const body = withoutBlanks(raw as Record<string, unknown>);
  const issues: FieldIssue[] = [];
  if (!checkSchema(body)) {
    for (const error of checkSchema.errors ?? []) {
      const issue = schemaIssue(error);
      if (!issues.some((i) => i.field === issue.field)) issues.push(issue);
    }
  }
  issues.push(...applicationIssues(body, now, new Set(issues.map((i) => i.field))));
  return issues.length === 0 ? { ok: true, issues, body: body as IntakeOrderBody } : { ok: false, issues };
}

export interface SignatureImage {
  content: Buffer;
  contentType: 'image/png' | 'image/jpeg';
  extension: 'png' | 'jpg';
}

/** The signature data URL's image, judged by its bytes (not by the type the URL claims), or the issue with it. */
export async function readSignature(dataUrl: string): Promise<SignatureImage | FieldIssue> {
  const content = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  if (content.length === 0 || content.length > MAX_SIGNATURE_BYTES) {
    return { field: 'signature', message: `The signature image must be at most ${MAX_SIGNATURE_BYTES / 1024} KB.` };
  }
  const type = await fileTypeFromBuffer(content);
  if (type?.mime === 'image/png') return { content, contentType: 'image/png', extension: 'png' };
  if (type?.mime === 'image/jpeg') return { content, contentType: 'image/jpeg', extension: 'jpg' };
  return {
    field: 'signature',
    message: `The signature is ${type ? `a ${type.ext.toUpperCase()} file` : 'not an image'}: please send a PNG or JPEG image.`,
  };
}

const trimmed = (value: string | undefined): string | null => (value === undefined ? null : value.trim());
const upper = (value: string | undefined): string | null =>
  value === undefined ? null : value.replace(/\s+/g, '').toUpperCase();
const countryName = (value: string | undefined): string | null =>
  value === undefined ? null : (findCountry(value)?.name ?? value.trim());

/**
 * The order's application columns from a checked body: text trimmed, document numbers in capitals without
 * spaces, `country_on_passport` as ISO alpha-3 and every other country as its English name (as the product
 * stores them), the dialling code as digits. Conditional answers that do not apply are not stored.
 */
export function applicationColumns(b: IntakeOrderBody): Partial<NewOrder> {
  const representative = b.applying_for_someone;
  const employed = !OCCUPATIONS_WITHOUT_EMPLOYER.includes(b.occupation);
  return {
    email: b.email.trim(),
    processing_type: b.processing_type,
    processing_date: b.processing_type === 'Future' ? (b.processing_date ?? null) : null,
    applying_for_someone: b.applying_for_someone,
    applying_for_minor: b.applying_for_minor ?? false,
    representative_is: representative ? (b.representative_is ?? null) : null,
    being_paid: representative ? (b.being_paid ?? null) : null,
    membership_id: representative ? trimmed(b.membership_id) : null,
    province_or_territory: representative ? trimmed(b.province_or_territory) : null,
    surname: representative ? trimmed(b.surname) : null,
    first_name: representative ? trimmed(b.first_name) : null,
    firm_or_organization: representative ? trimmed(b.firm_or_organization) : null,
    mailing_address: representative ? trimmed(b.mailing_address) : null,
    postal_code: representative ? trimmed(b.postal_code) : null,
    fax_number: representative ? trimmed(b.fax_number) : null,
    email_address: representative ? trimmed(b.email_address) : null,
    telephone_number: trimmed(b.telephone_number),
    country_code: b.country_code.replace(/[^0-9]/g, ''),
    preferred_language: b.preferred_language,
    travel_document: b.travel_document,
    country_on_passport: findCountry(b.country_on_passport)?.alpha3 ?? null,
    taiwan_personal_identification_number: upper(b.taiwan_personal_identification_number),
    confirm_taiwan_personal_identification_number: upper(b.confirm_taiwan_personal_identification_number),
    lawful_permanent_resident_of_us: b.lawful_permanent_resident_of_us,
    uscis_number: b.lawful_permanent_resident_of_us ? upper(b.uscis_number) : null,
    confirm_uscis_number: b.lawful_permanent_resident_of_us ? upper(b.confirm_uscis_number) : null,
    uscis_exp_year: b.lawful_permanent_resident_of_us ? (b.uscis_exp_year ?? null) : null,
    citizen_country: countryName(b.citizen_country),
    passport_number: upper(b.passport_number),
    confirm_passport_number: upper(b.confirm_passport_number),
    passport_surname: b.passport_surname.trim(),
    passport_first_name: trimmed(b.passport_first_name),
    birth_year: b.birth_year,
    birth_month: b.birth_month,
    birth_date: b.birth_date,
    gender: b.gender,
    country_of_birth: countryName(b.country_of_birth),
    city_of_birth: b.city_of_birth.trim(),
    passport_issue_year: b.passport_issue_year,
    passport_issue_month: b.passport_issue_month,
    passport_issue_date: b.passport_issue_date,
    passport_exp_year: b.passport_exp_year,
    passport_exp_month: b.passport_exp_month,
    passport_exp_date: b.passport_exp_date,
    country: countryName(b.country),
    marital_status: b.marital_status,
    appliedd_for_visa_before: b.appliedd_for_visa_before,
    uci_number: trimmed(b.uci_number),
    confirm_uci_number: trimmed(b.confirm_uci_number),
    occupation: b.occupation,
    job_title: employed ? trimmed(b.job_title) : null,
    employer_or_school_name: employed ? trimmed(b.employer_or_school_name) : null,
    job_country: employed ? countryName(b.job_country) : null,
    job_state: employed ? trimmed(b.job_state) : null,
    job_city: employed ? trimmed(b.job_city) : null,
    working_since: employed ? (b.working_since ?? null) : null,
    apartment_number: trimmed(b.apartment_number),
    house_name: b.house_name.trim(),
    street_name: b.street_name.trim(),
    street_name_2: trimmed(b.street_name_2),
    city: b.city.trim(),
    res_state: trimmed(b.res_state),
    res_zip_code: trimmed(b.res_zip_code),
    district: trimmed(b.district),
    do_you_know_when_travel_to_canada: b.do_you_know_when_travel_to_canada,
    travel_to_canada_year: b.do_you_know_when_travel_to_canada ? (b.travel_to_canada_year ?? null) : null,
    travel_to_canada_hour: b.do_you_know_when_travel_to_canada ? (b.travel_to_canada_hour ?? null) : null,
    have_you_ever_been_refused_a_visa_or_permit: b.have_you_ever_been_refused_a_visa_or_permit,
    country_that_refused_you_a_visa_or_permit: b.have_you_ever_been_refused_a_visa_or_permit
      ? countryName(b.country_that_refused_you_a_visa_or_permit)
      : null,
    have_you_ever_committed_been_arrested: b.have_you_ever_committed_been_arrested,
    please_indicate_where_committed_been_arrested: b.have_you_ever_committed_been_arrested
      ? trimmed(b.please_indicate_where_committed_been_arrested)
      : null,
    is_your_contact_with_tuberculosis: b.is_your_contact_with_tuberculosis,
    have_you_ever_been_diagnosed_with_tuberculosis: b.have_you_ever_been_diagnosed_with_tuberculosis,
    past_two_years_diagnosed_with_tuberculosis: b.past_two_years_diagnosed_with_tuberculosis,
    have_one_of_these_conditions: b.have_one_of_these_conditions,
    additional_details: trimmed(b.additional_details),
    payment_status: b.payment.status,
    amount_cents: b.payment.amount_cents,
    currency: b.payment.currency.toUpperCase(),
    transaction_id: trimmed(b.payment.transaction_id),
    merchant_name: trimmed(b.payment.merchant_name),
    customer_date: new Date(b.consent.agreed_at),
    ip_address: b.consent.ip_address.trim(),
    customer_browser: b.consent.customer_browser.trim(),
    customer_timezone: b.consent.customer_timezone.trim(),
  };
}
