// The spec's JSON envelope: { status: 1 | 0 | 401, message, data? } with a truthful HTTP status beside it.
import { Type, type TSchema } from 'typebox';
import type { ErrorCode } from './domain.js';
import type { FieldIssue } from './intake.js';

export const ApiStatus = Type.Union([Type.Literal(1), Type.Literal(0), Type.Literal(401)]);

export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({ status: ApiStatus, message: Type.String(), data });

export const MessageOnly = Type.Object({
  status: ApiStatus,
  message: Type.String(),
  /** Failures only: the machine-readable reason (ERROR_CODES). */
  code: Type.Optional(Type.String()),
  /** Field-level messages for 400 answers: field name → message. */
  errors: Type.Optional(Type.Record(Type.String(), Type.String())),
});

export interface ApiEnvelope<T = undefined> {
  status: 1 | 0 | 401;
  message: string;
  data?: T;
  /** Failures only: the machine-readable reason (ERROR_CODES in domain.ts). */
  code?: ErrorCode;
  /** Field name → message; the intake call lists every failing field as { field, message } instead. */
  errors?: Record<string, string> | FieldIssue[];
}
