// The application's own vocabulary (the eTA form's choices, spec §3 "Order details"), the country list it is
// checked against, and the other reference checks (currencies, time zones, dates) shared by the intake call,
// the CLI import, the demo data and any form. Plain data and functions: no schema library needed to use them.
import countries from 'i18n-iso-countries';
import english from 'i18n-iso-countries/langs/en.json' with { type: 'json' };

countries.registerLocale(english);

export const TRAVEL_DOCUMENTS = [
  'Passport - ordinary/regular',
  'Passport - official',
  'Passport - diplomatic',
  'Passport - service',
  'Emergency/temporary travel document',
  'Refugee travel document',
] as const;
export type TravelDocument = (typeof TRAVEL_DOCUMENTS)[number];

export const GENDERS = ['Female', 'Male', 'Another gender'] as const;
export type Gender = (typeof GENDERS)[number];

export const MARITAL_STATUSES = [
  'Single',
  'Married',
  'Common-Law',
  'Divorced',
  'Legally Separated',
  'Widowed',
  'Annulled Marriage',
] as const;
export type MaritalStatus = (typeof MARITAL_STATUSES)[number];

/** The eTA form's occupation categories; the ones after OCCUPATIONS_WITHOUT_EMPLOYER ask for no employer. */
export const OCCUPATIONS = [
  'Management occupations',
  'Business, finance and administration occupations',
  'Natural and applied sciences and related occupations',
  'Health occupations',
  'Occupations in education, law and social, community and government services',
  'Occupations in art, culture, recreation and sport',
  'Sales and service occupations',
  'Trades, transport and equipment operators and related occupations',
  'Natural resources, agriculture and related production occupations',
  'Occupations in manufacturing and utilities',
  'Student',
  'Military/armed forces',
  'Retired',
  'Homemaker',
  'Unemployed',
] as const;
export type Occupation = (typeof OCCUPATIONS)[number];
/** Occupations without a job title, employer, place or start year (the form does not ask for them). */
export const OCCUPATIONS_WITHOUT_EMPLOYER: readonly Occupation[] = ['Retired', 'Homemaker', 'Unemployed'];

export const PREFERRED_LANGUAGES = ['English', 'French'] as const;
export type PreferredLanguage = (typeof PREFERRED_LANGUAGES)[number];

export const REPRESENTATIVE_KINDS = [
  'Family member',
  'Friend',
  'Travel agent',
  'Immigration consultant',
  'Employer',
] as const;
export type RepresentativeKind = (typeof REPRESENTATIVE_KINDS)[number];

/**
 * The English name the product stores for a country: ISO 3166's English name, in its everyday form where the
 * official one is long ("Russian Federation" → "Russia"), as the demo data and the reports already write them.
 */
const EVERYDAY_NAMES: Readonly<Record<string, string>> = {
  USA: 'United States',
  GBR: 'United Kingdom',
  CHN: 'China',
  TWN: 'Taiwan',
  RUS: 'Russia',
  IRN: 'Iran',
  TZA: 'Tanzania',
  PSE: 'Palestine',
  MKD: 'North Macedonia',
  MDA: 'Moldova',
  SYR: 'Syria',
  LAO: 'Laos',
  VAT: 'Vatican City',
  FSM: 'Micronesia',
  GMB: 'The Gambia',
  BRN: 'Brunei',
  VGB: 'British Virgin Islands',
  VIR: 'United States Virgin Islands',
};

export interface Country {
  /** ISO 3166-1 alpha-3 (what `country_on_passport` stores). */
  alpha3: string;
  /** The English name (what every other country field stores). */
  name: string;
}

/** Lower case, accents and punctuation gone, one space between words: "Côte d'Ivoire" → "cote d ivoire". */
const fold = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

let byName: Map<string, Country> | undefined;

function countryIndex(): Map<string, Country> {
  if (byName) return byName;
  byName = new Map();
  for (const [alpha2, names] of Object.entries(countries.getNames('en', { select: 'all' }))) {
    const alpha3 = countries.alpha2ToAlpha3(alpha2);
    if (!alpha3 || !names[0]) continue;
    const country: Country = { alpha3, name: EVERYDAY_NAMES[alpha3] ?? names[0] };
    for (const key of [alpha2, alpha3, country.name, ...names]) byName.set(fold(key), country);
  }
  return byName;
}

/** A country by its English name (official or everyday, any case, accents optional) or its ISO alpha-2/-3 code. */
export function findCountry(input: string): Country | undefined {
  return countryIndex().get(fold(input));
}

/** Every country of the list, by English name: for a form's select. */
export function listCountries(): Country[] {
  const unique = new Map([...countryIndex().values()].map((c) => [c.alpha3, c]));
  return [...unique.values()].sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

let currencies: Set<string> | undefined;
/** An ISO 4217 currency code this runtime knows (upper case). */
export function isCurrencyCode(code: string): boolean {
  currencies ??= new Set(Intl.supportedValuesOf('currency'));
  return /^[A-Z]{3}$/.test(code) && currencies.has(code);
}

const zones = new Map<string, boolean>();
/** An IANA time zone name ("Europe/Paris"; "UTC"), as a browser's Intl reports it. */
export function isTimeZone(name: string): boolean {
  let known = zones.get(name);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: name });
      known = /^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(name);
    } catch {
      known = false;
    }
    if (zones.size < 1000) zones.set(name, known);
  }
  return known;
}

/** 'YYYY-MM-DD' of a calendar date that exists, or undefined (2026-02-30 does not). */
export function calendarDate(year: number, month: number, day: number): string | undefined {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return undefined;
  const at = new Date(Date.UTC(year, month - 1, day));
  if (at.getUTCFullYear() !== year || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day) return undefined;
  return at.toISOString().slice(0, 10);
}

/** A 'YYYY-MM-DD' text that names an existing date, or undefined. */
export function parseCalendarDate(text: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  return m ? calendarDate(Number(m[1]), Number(m[2]), Number(m[3])) : undefined;
}

/** 'YYYY-MM-DD' `days` after `date` (negative: before). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
