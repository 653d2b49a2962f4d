// How a typed order id is read everywhere (DESIGN §7): trimmed and matched case-insensitively.

/** Order ids are matched exactly, case-insensitive and trimmed (DESIGN §7); stored ids are upper case. */
export const normalizeOrderId = (id: string) => id.trim().toUpperCase();
