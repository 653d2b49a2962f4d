// Typed domain errors: services throw these with a machine-readable code (contracts ERROR_CODES) and a
// message for people; plugins/errors.ts maps them to HTTP in one place.
import type { ErrorCode, FieldIssue } from '@eta/contracts';

const HTTP_STATUS: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  INVALID_TEXT: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  SESSION_EXPIRED: 401,
  INVALID_CODE: 401,
  CHALLENGE_EXPIRED: 401,
  // 403, never 401: the console ends a session on a 401, and here the member is signed in.
  RECENT_PROOF_REQUIRED: 403,
  PROOF_REJECTED: 403,
  FACTOR_REQUIRED: 409,
  SSO_REQUIRED: 403,
  SIGN_IN_REFUSED: 403,
  SSO_UNAVAILABLE: 502,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  ORDER_NOT_FOUND: 404,
  CONFLICT: 409,
  NOT_PAID: 409,
  STALE_VERSION: 409,
  ORDER_HELD: 409,
  NOT_ASSIGNED: 409,
  ALREADY_IN_STATUS: 409,
  WRONG_STATUS: 409,
  ORDER_DELETED: 409,
  ORDER_CLOSED: 409,
  NO_DOCUMENT: 409,
  DOCUMENT_STORE_UNAVAILABLE: 503,
  DOCUMENT_CHANGED: 409,
  TRACK_PROOF_REQUIRED: 401,
  PROVIDER_NOT_CONFIGURED: 400,
  EMAIL_TAKEN: 409,
  SELF_DELETE: 409,
  LAST_ADMIN: 409,
  IDEMPOTENCY_CONFLICT: 409,
  GATEWAY_NOT_CONFIGURED: 409,
  GATEWAY_ERROR: 502,
  REFUND_FAILED: 409,
  NO_DISPUTE: 409,
  EVIDENCE_SUBMITTED: 409,
  DISPUTE_OPEN: 409,
  LEGAL_HOLD: 409,
  ORDER_ERASED: 409,
  RETENTION_RUNNING: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_FILE: 415,
  UNREADABLE_DOCUMENT: 422,
  DOCUMENT_MISMATCH: 422,
  DOCUMENT_NOT_READ: 422,
  EMAIL_CHANGE_UNCONFIRMED: 409,
  URI_TOO_LONG: 414,
  TOO_MANY_ATTEMPTS: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  DATABASE_TIMEOUT: 503,
  DATABASE_UNAVAILABLE: 503,
  DATABASE_BUSY: 503,
  SERVER_RESTARTING: 503,
};

export const httpStatusOf = (code: ErrorCode): number => HTTP_STATUS[code];

export interface AppErrorOptions {
  /** Field name → message, for validation failures. */
  fields?: Record<string, string>;
  /** Every failing field with its message, in order (the intake call's validation answer). */
  issues?: FieldIssue[];
  /** Extra facts for the client, sent as the envelope's `data` (e.g. the skipped orders of a bulk move). */
  data?: unknown;
  /** A limit's wait (429), or when to try again (503), sent as Retry-After. */
  retryAfterSeconds?: number;
}

export class AppError extends Error {
  readonly httpStatus: number;
  readonly fields: Record<string, string> | undefined;
  readonly issues: FieldIssue[] | undefined;
  readonly data: unknown;
  readonly retryAfterSeconds: number | undefined;
  constructor(
    readonly code: ErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.httpStatus = HTTP_STATUS[code];
    this.fields = options.fields;
    this.issues = options.issues;
    this.data = options.data;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
