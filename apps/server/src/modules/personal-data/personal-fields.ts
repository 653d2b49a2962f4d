// Which of an order's columns hold personal data (issue 24): the one list that encryption at rest, retention's
// erasure and subject-access exports read, so a field added to the application is protected everywhere at once.
import type { OrdersTable } from '../../db/schema.js';

/** Encrypted per field at rest (AES-256-GCM under the `order` data key); passport_number also has a keyed-hash index. */
export const SENSITIVE_ORDER_FIELDS = [
  'passport_number',
  'confirm_passport_number',
  'uci_number',
  'confirm_uci_number',
  'uscis_number',
  'confirm_uscis_number',
  'taiwan_personal_identification_number',
  'confirm_taiwan_personal_identification_number',
  'birth_year',
  'birth_month',
  'birth_date',
] as const satisfies readonly (keyof OrdersTable)[];

export type SensitiveOrderField = (typeof SENSITIVE_ORDER_FIELDS)[number];

/**
 * What erasing an order's sensitive fields writes: every column that holds them, in clear or sealed. Retention and
 * erasure requests use this, so a column added for encryption (ciphertext, keyed hash) is erased with the rest.
 */
export const ERASED_SENSITIVE_COLUMNS = {
  ...(Object.fromEntries(SENSITIVE_ORDER_FIELDS.map((f) => [f, null])) as { [F in SensitiveOrderField]: null }),
  // Where encryption keeps them (migration 021): the sealed fields and the passport number's keyed hash.
  personal_sealed: null,
  passport_number_hmac: null,
} satisfies { [C in keyof OrdersTable]?: null };
