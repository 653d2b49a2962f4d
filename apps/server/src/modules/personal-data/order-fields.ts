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

const NUMERIC: ReadonlySet<SensitiveOrderField> = new Set(['birth_year', 'birth_month', 'birth_date']);
const CLEAR = Object.fromEntries(SENSITIVE_ORDER_FIELDS.map((f) => [f, null])) as { [F in SensitiveOrderField]: null };

const aad = (orderId: string, field: SensitiveOrderField) => Buffer.from(`eta-desk order ${orderId} ${field}`);

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
      if (value === null || value === undefined || value === '') continue;
      sealed[field] = this.keyring.seal('order', Buffer.from(String(value)), aad(orderId, field)).toString('base64');
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
        const text = this.keyring.open('order', Buffer.from(value, 'base64'), aad(orderId, field)).toString();
        values[field] = NUMERIC.has(field) ? Number(text) : text;
      }
      return values;
    });
  }

  /** The keyed hash the passport index holds for a passport number. */
  passportHash(passportNumber: string): Buffer {
    return this.keyring.keyedHash(`passport:${normalizePassportNumber(passportNumber)}`);
  }
}
