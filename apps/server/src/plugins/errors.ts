// Every failure leaves in the spec's envelope {status, code, message} with a truthful HTTP status, including
// the ones Node and the router answer before a route runs (bad URL, over-long parameter, oversized headers).
// A 5xx never shows internals.
import http from 'node:http';
import type { Socket } from 'node:net';
import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { ApiEnvelope, ErrorCode } from '@eta/contracts';
import { AppError } from '../lib/errors.js';
import { DocumentStoreUnavailableError } from '../lib/storage/document-store.js';
import { ClientGoneError, isStatementTimeout, StatementTimeoutError } from '../db/statement-budget.js';
import { DatabaseBusyError, DatabaseUnavailableError } from '../db/connection-errors.js';

const GENERIC_5XX = 'Something went wrong on our side. Please try again; if it keeps happening, contact support.';

interface IssueSchema {
  errorMessage?: unknown;
  properties?: Record<string, IssueSchema>;
}

interface ValidationIssue {
  keyword?: string;
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
  parentSchema?: IssueSchema;
}

/**
 * The contract's own wording when the schema carries one (`errorMessage`: one text, or one per failed
 * keyword with an optional `default`), else Ajv's ("email must be string"). A missing field is reported on
 * its parent object, so its wording is read from the field's own schema.
 */
function issueMessage(issue: ValidationIssue, field: string): string {
  const missing = issue.keyword === 'required' ? issue.params?.missingProperty : undefined;
  const schema = typeof missing === 'string' ? issue.parentSchema?.properties?.[missing] : issue.parentSchema;
  const wording = schema?.errorMessage;
  if (typeof wording === 'string') return wording;
  if (wording && typeof wording === 'object') {
    const byKeyword = wording as Record<string, unknown>;
    const text = byKeyword[issue.keyword ?? ''] ?? byKeyword.default;
    if (typeof text === 'string') return text;
  }
  return `Invalid request: ${field} ${issue.message ?? 'is invalid'}.`;
}

const fieldName = (issue: ValidationIssue): string => {
  const fromPath = issue.instancePath?.split('/').filter(Boolean).join('.');
  const missing = issue.params?.requiredProperties ?? issue.params?.missingProperty;
  if (fromPath) return fromPath;
  if (Array.isArray(missing) && missing.length > 0) return String(missing[0]);
  return typeof missing === 'string' ? missing : 'request';
};

/** Framework and HTTP-level failures by status: the reason a client can act on. */
const CODE_BY_STATUS: Record<number, ErrorCode> = {
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  429: 'TOO_MANY_ATTEMPTS',
  431: 'HEADERS_TOO_LARGE',
};

const MESSAGE_BY_STATUS: Record<number, string> = {
  408: 'The request took too long to arrive. Please try again.',
  413: 'The request is too large.',
  414: 'The address is too long. Please check the link.',
  431: 'The request headers are too large. Please sign out and in again, or clear this site’s cookies.',
};

type ErrorEnvelope = ApiEnvelope<unknown> & { status: 0 | 401 };

/** nginx's word for a request whose client closed the connection before the answer: nobody reads it. */
const CLIENT_CLOSED_REQUEST = 499;

/** The HTTP status and envelope for any error a request can end with. */
export function toErrorReply(error: FastifyError | AppError | DocumentStoreUnavailableError): {
  httpStatus: number;
  body: ErrorEnvelope;
} {
  if (error instanceof ClientGoneError) {
    return { httpStatus: CLIENT_CLOSED_REQUEST, body: { status: 0, code: 'INTERNAL', message: error.message } };
  }
  if (error instanceof DocumentStoreUnavailableError) {
    return { httpStatus: error.httpStatus, body: { status: 0, code: error.code, message: error.message } };
  }
  if (error instanceof AppError) {
    return {
      httpStatus: error.httpStatus,
      body: {
        status: error.httpStatus === 401 ? 401 : 0,
        code: error.code,
        message: error.message,
        ...(error.fields ? { errors: error.fields } : {}),
        ...(error.issues ? { errors: error.issues } : {}),
        ...(error.data !== undefined ? { data: error.data } : {}),
      },
    };
  }
  if (error.validation) {
    const errors: Record<string, string> = {};
    for (const issue of error.validation as ValidationIssue[]) {
      const field = fieldName(issue);
      errors[field] ??= issueMessage(issue, field);
    }
    const message = Object.values(errors)[0] ?? 'The request is invalid.';
    return { httpStatus: 400, body: { status: 0, code: 'VALIDATION_FAILED', message, errors } };
  }
  const httpStatus = error.statusCode ?? 500;
  if (httpStatus >= 400 && httpStatus < 500) {
    return {
      httpStatus,
      body: {
        status: httpStatus === 401 ? 401 : 0,
        code: CODE_BY_STATUS[httpStatus] ?? 'VALIDATION_FAILED',
        message: MESSAGE_BY_STATUS[httpStatus] ?? (error.message || 'The request could not be handled.'),
      },
    };
  }
  return { httpStatus: 500, body: { status: 0, code: 'INTERNAL', message: GENERIC_5XX } };
}

/** Errors the router raises before any route runs (malformed URL encoding, over-long parameter). */
export const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
) => {
  const { httpStatus, body } = toErrorReply(error);
  void reply.code(httpStatus).header('cache-control', 'no-store').send(body);
};

/** Errors Node's HTTP parser raises before Fastify sees a request (oversized headers, a malformed request). */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const httpStatus = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify({
    status: 0,
    code: CODE_BY_STATUS[httpStatus] ?? 'VALIDATION_FAILED',
    message: MESSAGE_BY_STATUS[httpStatus] ?? 'The request is malformed.',
  } satisfies ErrorEnvelope);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${httpStatus} ${http.STATUS_CODES[httpStatus]}\r\nContent-Type: application/json\r\n` +
        `Cache-Control: no-store\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

export default fp(async (app) => {
  app.setErrorHandler((raw: FastifyError | AppError | DocumentStoreUnavailableError, request, reply) => {
    // A statement past its budget (issue 31) is a 503 with Retry-After and what to do, whatever error it came as.
    const error =
      isStatementTimeout(raw) && !(raw instanceof StatementTimeoutError) ? new StatementTimeoutError() : raw;
    const { httpStatus, body } = toErrorReply(error);
    // None is a fault of the code: a statement cancelled because its client left is no error at all, and one
    // stopped by its budget, a database away (a restart) or a full pool is worth a warning (what happened) but not a
    // stack.
    if (error instanceof ClientGoneError) request.log.info('client went away: its statement was cancelled');
    else if (error instanceof StatementTimeoutError) {
      request.log.warn({ budgetMs: error.timeoutMs }, 'a statement ran past its time budget');
    } else if (error instanceof DatabaseUnavailableError) {
      request.log.warn({ reason: error.reason }, 'the database is unavailable: answered 503');
    } else if (error instanceof DatabaseBusyError) {
      request.log.warn({ reason: error.reason }, 'no database connection came free in time: answered 503');
    } else if (error instanceof DocumentStoreUnavailableError) {
      request.log.warn({ detail: error.detail, key: error.key }, 'the document store is unavailable: answered 503');
    } else if (httpStatus >= 500) request.log.error({ err: error }, 'unhandled error');
    if (
      (error instanceof AppError || error instanceof DocumentStoreUnavailableError) &&
      error.retryAfterSeconds !== undefined
    ) {
      void reply.header('retry-after', String(error.retryAfterSeconds));
    }
    return reply.code(httpStatus).send(body);
  });
});
