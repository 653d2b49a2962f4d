// What a staff member typed into a queue's search box, read as the values it can be (issue 31). Whole values a
// customer quotes are looked up exactly through B-trees; everything is also a fragment of the search text, found by
// walking the queue's newest orders and through the trigram index (orders.repository, order-queries.service).
import { normalizeOrderId } from '../../lib/order-id.js';
import { looksLikePassportNumber } from '../personal-data/order-fields.js';

export interface SearchText {
  /** Trimmed and lower-cased, spaces collapsed: what a fragment is looked for as. */
  fragment: string;
  /** Whether the trigram index can narrow the fragment (three letters or digits in a row). */
  indexable: boolean;
  /** An order id: 'ETA-' and nine digits, typed with or without the prefix. */
  orderId?: string;
  /** An e-mail address, lower-cased. */
  email?: string;
  /**
   * A telephone number (7 to 15 digits, any punctuation) as the digits it may be stored as: as typed, without a
   * trunk or international prefix, or without its dialling code (then with that code, `countryCode`).
   */
  telephone?: { digits: string[]; withCountryCode: { countryCode: string; digits: string }[] };
  /** Could be a passport number (4 to 20 letters and digits); its keyed hash is looked up. */
  passport?: string;
  /** IRCC's application number ('V' and 8 to 10 digits), as read from an approval at upload (issue 35). */
  applicationNumber?: string;
  /**
   * A name: a surname or a first name (`fragment`, of one word or several: "García López"), or a full name "first
   * surname" in the order typed (`fullNames[0]`, the fragment itself) or in an order that puts a trailing part first
   * ("Jones Harry").
   */
  name?: { fullNames: string[] };
  /**
   * Whether the text is a value a customer quotes whole (an order id, an e-mail, a telephone number of 8 digits or
   * more): its exact matches are the answer, even none, and no fragment search follows (a mistyped address is not
   * found inside others either, and the trigrams of an order id or an address are in most orders). A passport number
   * or a name of several words is the answer when found (orders.repository ExactKey.final); seven digits and a word
   * are also looked for inside other values ("Jones" in "jones08@…").
   */
  whole: boolean;
}

const ORDER_ID = /^(?:eta[-\s]?)?(\d{9})$/i;
const APPLICATION_NUMBER = /^v\s?(\d{8,10})$/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const TELEPHONE = /^[+\d\s().-]+$/;
/** Words of letters, apostrophes and hyphens, a word perhaps ending in a dot ("St. John"). */
const NAME = /^\p{L}[\p{L}\p{M}'’-]*\.?(?: \p{L}[\p{L}\p{M}'’-]*\.?)*$/u;
/** pg_trgm takes trigrams from runs of letters and digits only. */
const INDEXABLE = /[\p{L}\p{N}]{3}/u;

/** The ways a telephone number may be stored: national digits, or after a dialling code of 1 to 4 digits. */
function telephoneOf(text: string): SearchText['telephone'] {
  if (!TELEPHONE.test(text)) return undefined;
  const digits = text.replace(/\D/g, '');
  if (digits.length < 7 || digits.length > 15) return undefined;
  const international = digits.replace(/^0+/, '');
  const withCountryCode = [1, 2, 3, 4]
    .filter((k) => international.length - k >= 4)
    .map((k) => ({ countryCode: international.slice(0, k), digits: international.slice(k) }));
  return { digits: [...new Set([digits, international])], withCountryCode };
}

/** "a b c" as a full name in the order typed, and with each trailing part first: "b c a", "c a b"; "a" alone. */
function fullNames(words: string[]): string[] {
  return words.map((_, i) => [...words.slice(i), ...words.slice(0, i)].join(' '));
}

export function readSearchText(typed: string): SearchText {
  const fragment = typed.trim().toLowerCase().replace(/\s+/g, ' ');
  const read: SearchText = { fragment, indexable: INDEXABLE.test(fragment), whole: false };
  const orderId = ORDER_ID.exec(fragment);
  if (orderId) read.orderId = normalizeOrderId(`ETA-${orderId[1]}`);
  if (EMAIL.test(fragment)) read.email = fragment;
  const telephone = telephoneOf(fragment);
  if (telephone) read.telephone = telephone;
  if (looksLikePassportNumber(fragment)) read.passport = fragment;
  const application = APPLICATION_NUMBER.exec(fragment);
  if (application) read.applicationNumber = `V${application[1]}`;
  if (NAME.test(fragment)) read.name = { fullNames: fullNames(fragment.split(' ')) };
  // Seven digits may be the end of a telephone number or of an order id as well as a whole number.
  read.whole = Boolean(read.orderId || read.email || (telephone && telephone.digits[0]!.length >= 8));
  return read;
}

/** Whether anything in the text can be looked up exactly. */
export const hasExactValue = (text: SearchText) =>
  Boolean(text.orderId || text.email || text.telephone || text.passport || text.applicationNumber || text.name);
