// What an approved document says, from its text (issue 35): whether it names this order's traveller (the passport
// number and the surname), what it names instead when it does not, and the approval's own facts (IRCC's application
// number, the approval and expiry dates). Pure and cheap: the text comes from the worker pool (read-document.ts).
//
// Matching is forgiving where scans are: case, accents, spaces and punctuation are ignored, and a passport number is
// compared in a form where the characters OCR confuses (O/0, I/L/1, S/5, B/8, Z/2) are the same. A surname must be
// there as whole words in order (HARRIS is not found in HARRISON).

/** The traveller an order is for, as the application gave it. */
export interface TravellerIdentity {
  surname: string;
  givenNames: string;
  passportNumber: string;
}

/** What the document names by its own labels ("Family name", "Passport number" …), where it has them. */
export interface NamedIdentity {
  surname: string | null;
  givenNames: string | null;
  passportNumber: string | null;
}

export interface ApprovalFacts {
  /** IRCC's application number: V and digits. */
  applicationNumber: string | null;
  /** YYYY-MM-DD. */
  approvedOn: string | null;
  expiresOn: string | null;
}

export interface ApprovalReading {
  /** Enough text was found to judge the document (20 letters or more). */
  readable: boolean;
  passportFound: boolean;
  surnameFound: boolean;
  givenNamesFound: boolean;
  named: NamedIdentity;
  facts: ApprovalFacts;
  /** The start of the text, one line, for the audit trail of a document sent without a match. */
  summary: string;
}

const MIN_LETTERS = 20;
const SUMMARY_CHARS = 300;

/** Upper case, accents gone, every run of other characters one space. */
const plain = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toUpperCase()
    .replace(/[^A-Z0-9\n]+/g, ' ');

const words = (text: string): string[] => plain(text).split(/[\s]+/).filter(Boolean);

/** The characters OCR mixes up, made one. */
const shape = (text: string): string =>
  text.replace(/O/g, '0').replace(/[IL]/g, '1').replace(/S/g, '5').replace(/B/g, '8').replace(/Z/g, '2');

const compact = (text: string): string => plain(text).replace(/[^A-Z0-9]/g, '');

function containsWords(haystack: string[], needle: string[]): boolean {
  if (needle.length === 0) return false;
  outer: for (let i = 0; i + needle.length <= haystack.length; i += 1) {
    for (let j = 0; j < needle.length; j += 1) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

const LABEL_END =
  '(?=\\n|  |$|\\s(?:GIVEN|FIRST|FAMILY|SURNAME|LAST|PASSPORT|DATE|APPLICATION|DOCUMENT|NATIONALITY|EXPIR|VALID|UCI)\\b)';

/** The value after one of `labels` on the same line ("Family name: HARRIS"). */
function labelled(lines: string[], labels: string, value: string): string | null {
  const pattern = new RegExp(`\\b(?:${labels})\\b[\\s:.-]*(${value})${LABEL_END}`);
  for (const line of lines) {
    const found = pattern.exec(line);
    if (found?.[1]) return found[1].trim().replace(/\s+/g, ' ');
  }
  return null;
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const MONTH =
  '(JAN(?:UARY)?|FEB(?:RUARY)?|MAR(?:CH)?|APR(?:IL)?|MAY|JUNE?|JULY?|AUG(?:UST)?|SEP(?:T(?:EMBER)?)?|OCT(?:OBER)?|NOV(?:EMBER)?|DEC(?:EMBER)?)';
const DATE = `(\\d{4} \\d{1,2} \\d{1,2}|\\d{1,2} ${MONTH} \\d{4}|${MONTH} \\d{1,2} \\d{4})`;

/** A date as an approval prints it (2026-11-27, 2026/11/27, 27 November 2026, November 27, 2026) → YYYY-MM-DD. */
export function parseDate(raw: string): string | null {
  const parts = plain(raw).trim().split(' ');
  let year: number, month: number, day: number;
  if (/^\d{4}$/.test(parts[0]!)) [year, month, day] = parts.map(Number) as [number, number, number];
  else if (/^\d/.test(parts[0]!)) {
    day = Number(parts[0]);
    month = MONTHS.indexOf(parts[1]!.slice(0, 3)) + 1;
    year = Number(parts[2]);
  } else {
    month = MONTHS.indexOf(parts[0]!.slice(0, 3)) + 1;
    day = Number(parts[1]);
    year = Number(parts[2]);
  }
  const date = new Date(Date.UTC(year, month - 1, day));
  if (month < 1 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day || year < 2000 || year > 2100) {
    return null;
  }
  return date.toISOString().slice(0, 10);
}

export function readApproval(text: string, traveller: TravellerIdentity): ApprovalReading {
  const lines = plain(text)
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  const all = words(text);
  const passport = compact(traveller.passportNumber);
  const passportFound = passport.length >= 5 && shape(compact(text)).includes(shape(passport));
  const surnameFound = containsWords(all, words(traveller.surname));
  const givenNamesFound = containsWords(all, words(traveller.givenNames));

  const date = (labels: string) => {
    const raw = labelled(lines, labels, DATE);
    return raw ? parseDate(raw) : null;
  };
  const application = /\bV ?(\d{8,10})\b/.exec(lines.join('\n'));
  return {
    readable: letters >= MIN_LETTERS,
    passportFound,
    surnameFound,
    givenNamesFound,
    named: {
      surname: labelled(lines, 'FAMILY NAME(?: ?S)?|SURNAME(?: ?S)?|LAST NAME(?: ?S)?', "[A-Z][A-Z '-]{0,60}?"),
      givenNames: labelled(lines, 'GIVEN NAME(?: ?S)?|FIRST NAME(?: ?S)?', "[A-Z][A-Z '-]{0,60}?"),
      passportNumber: labelled(
        lines,
        'PASSPORT (?:NUMBER|NO)|TRAVEL DOCUMENT NUMBER|DOCUMENT NUMBER',
        '[A-Z0-9]{5,12}',
      ),
    },
    facts: {
      applicationNumber: application ? `V${application[1]}` : null,
      approvedOn: date('DATE OF (?:ETA )?APPROVAL|APPROVAL DATE|DATE APPROVED|APPROVED ON'),
      expiresOn: date('(?:ETA )?EXPIRY DATE|DATE OF EXPIRY|EXPIRES ON|EXPIRES|VALID UNTIL|VALID TO'),
    },
    summary: text.replace(/\s+/g, ' ').trim().slice(0, SUMMARY_CHARS),
  };
}

/** Whether the document names the order's traveller: their passport number and their surname. */
export const matchesTraveller = (reading: ApprovalReading): boolean => reading.passportFound && reading.surnameFound;

/** "WHITFIELD / K48213571" for the refusal; a part the desk could not find says so. */
export const describeNamed = (named: NamedIdentity): string =>
  `${named.surname ?? 'no surname the desk could find'} / ${named.passportNumber ?? 'no passport number the desk could find'}`;
