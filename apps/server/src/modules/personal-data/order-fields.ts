// An order's sensitive fields at rest (issue 24): each one sealed on its own with AES-256-GCM under the 'order' data
// key, its AAD naming the order and the field, so a ciphertext copied to another order or field does not open. They
// live in orders.personal_sealed (field name to base64 ciphertext) with their clear columns NULL, and the passport
// number also as a keyed hash (orders.passport_number_hmac) for the staff search's exact lookup.
import type { SealedFields } from '../../db/schema.js';
import type { Keyring } from '../../lib/crypto/keyring.js';
import { SENSITIVE_ORDER_FIELDS, type SensitiveOrderField } from './personal-fields.js';

export type SensitiveValues = { [F in SensitiveOrderField]?: string | number | null | undefined };

/** What an order stores for its sensitive fields: every clear column NULL, the sealed fields and the keyed hash. */
export type SealedOrderColumns = { [F in SensitiveOrderField]: null } & {
  personal_sealed: SealedFields | null;
  /** bytea as PostgreSQL's text form ('\x' and hex): it travels in JSON (intake, demo loader) and as a parameter. */
  passport_number_hmac: string | null;
};

/**
 * The birth date's three parts are sealed as one value, "year-month-day" (a part not given left empty), under the
 * name BIRTH: one AES-GCM open instead of three on every order detail, where the opens were most of what encryption
 * cost (docs/PERFORMANCE.md, run 20). Orders sealed with a value per part still open.
 */
const BIRTH_PARTS = ['birth_year', 'birth_month', 'birth_date'] as const;
const BIRTH = 'birth';
const NUMERIC: ReadonlySet<string> = new Set(BIRTH_PARTS);
/**
 * The confirm copies and the field each one confirms. The application is refused unless they match, so a confirm copy
 * equal to its field is stored as SAME_AS_CONFIRMED instead of a second ciphertext of the same value: it tells nothing
 * the rules do not already say, and halves the cost of sealing the identity numbers.
 */
const CONFIRMED: Partial<Record<SensitiveOrderField, SensitiveOrderField>> = {
  confirm_passport_number: 'passport_number',
  confirm_uci_number: 'uci_number',
  confirm_uscis_number: 'uscis_number',
  confirm_taiwan_personal_identification_number: 'taiwan_personal_identification_number',
};
const SAME_AS_CONFIRMED = '=';
const CLEAR = Object.fromEntries(SENSITIVE_ORDER_FIELDS.map((f) => [f, null])) as { [F in SensitiveOrderField]: null };

const aad = (orderId: string, field: SensitiveOrderField | typeof BIRTH) =>
  Buffer.from(`eta-desk order ${orderId} ${field}`);

const given = (value: string | number | null | undefined): value is string | number =>
  value !== null && value !== undefined && value !== '';

/** A passport number as it is hashed and searched: without spaces, upper-case ("ab 123456" is AB123456). */
export const normalizePassportNumber = (raw: string): string => raw.replace(/\s+/g, '').toUpperCase();

/** Whether a search text could be a passport number (4 to 20 letters or digits, as the application accepts). */
export const looksLikePassportNumber = (raw: string): boolean =>
  /^[A-Z0-9]{4,20}$/.test(normalizePassportNumber(raw.trim()));

export class OrderFieldsCipher {
  constructor(private readonly keyring: Keyring) {}

  /** The columns to write for `values` of order `orderId`: nothing of them in clear. */
  seal(orderId: string, values: SensitiveValues): SealedOrderColumns {
    const sealed: SealedFields = {};
    let any = false;
    for (const field of SENSITIVE_ORDER_FIELDS) {
      const value = values[field];
      if (!given(value) || NUMERIC.has(field)) continue;
      const confirmed = CONFIRMED[field];
      if (confirmed && values[confirmed] === value) {
        sealed[field] = SAME_AS_CONFIRMED;
        any = true;
        continue;
      }
      sealed[field] = this.seal1(orderId, field, String(value));
      any = true;
    }
    if (BIRTH_PARTS.some((part) => given(values[part]))) {
      sealed[BIRTH] = this.seal1(orderId, BIRTH, BIRTH_PARTS.map((part) => values[part] ?? '').join('-'));
      any = true;
    }
    const passport = values.passport_number;
    return {
      ...CLEAR,
      personal_sealed: any ? sealed : null,
      passport_number_hmac: passport ? `\\x${this.passportHash(String(passport)).toString('hex')}` : null,
    };
  }

  /** The fields `sealed` holds for order `orderId`, as their columns would (birth date parts as numbers). */
  open(orderId: string, sealed: SealedFields | null | undefined): Promise<SensitiveValues> {
    if (!sealed) return Promise.resolve({});
    return this.keyring.withNewerKeys(() => {
      const values: SensitiveValues = {};
      for (const field of SENSITIVE_ORDER_FIELDS) {
        const value = sealed[field];
        if (value === undefined) continue;
        if (value === SAME_AS_CONFIRMED) continue; // below, once the field it confirms is open
        const text = this.open1(orderId, field, value);
        values[field] = NUMERIC.has(field) ? Number(text) : text;
      }
      if (sealed[BIRTH] !== undefined) {
        const parts = this.open1(orderId, BIRTH, sealed[BIRTH]).split('-');
        BIRTH_PARTS.forEach((part, i) => {
          if (parts[i]) values[part] = Number(parts[i]);
        });
      }
      for (const [field, confirmed] of Object.entries(CONFIRMED) as [SensitiveOrderField, SensitiveOrderField][]) {
        if (sealed[field] === SAME_AS_CONFIRMED) values[field] = values[confirmed];
      }
      return values;
    });
  }

  private seal1(orderId: string, field: SensitiveOrderField | typeof BIRTH, value: string): string {
    return this.keyring.seal('order', Buffer.from(value), aad(orderId, field)).toString('base64');
  }

  private open1(orderId: string, field: SensitiveOrderField | typeof BIRTH, value: string): string {
    return this.keyring.open('order', Buffer.from(value, 'base64'), aad(orderId, field)).toString();
  }

  /** The keyed hash the passport index holds for a passport number. */
  passportHash(passportNumber: string): Buffer {
    return this.keyring.keyedHash(`passport:${normalizePassportNumber(passportNumber)}`);
  }
}
