// Every failure leaves in the spec's envelope with a truthful HTTP status; a 5xx never shows internals.
import fp from 'fastify-plugin';
import type { FastifyError } from 'fastify';
import { AppError } from '../lib/errors.js';

const GENERIC_5XX = 'Something went wrong on our side. Please try again; if it keeps happening, contact support.';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
  parentSchema?: { errorMessage?: unknown };
}

/** The contract's own wording when the schema carries one, else Ajv's ("email must be string"). */
const issueMessage = (issue: ValidationIssue, field: string): string =>
  typeof issue.parentSchema?.errorMessage === 'string'
    ? issue.parentSchema.errorMessage
    : `Invalid request: ${field} ${issue.message ?? 'is invalid'}.`;

const fieldName = (issue: ValidationIssue): string => {
  const fromPath = issue.instancePath?.split('/').filter(Boolean).join('.');
  const missing = issue.params?.requiredProperties ?? issue.params?.missingProperty;
  if (fromPath) return fromPath;
  if (Array.isArray(missing) && missing.length > 0) return String(missing[0]);
  return typeof missing === 'string' ? missing : 'request';
};

export default fp(async (app) => {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      const body = {
        status: error.httpStatus === 401 ? 401 : 0,
        message: error.message,
        ...(error.fields ? { errors: error.fields } : {}),
      };
      return reply.code(error.httpStatus).send(body);
    }
    if (error.validation) {
      const errors: Record<string, string> = {};
      for (const issue of error.validation as ValidationIssue[]) {
        const field = fieldName(issue);
        errors[field] ??= issueMessage(issue, field);
      }
      const message = Object.values(errors)[0] ?? 'The request is invalid.';
      return reply.code(400).send({ status: 0, message, errors });
    }
    const code = error.statusCode ?? 500;
    if (code >= 400 && code < 500) {
      return reply
        .code(code)
        .send({ status: code === 401 ? 401 : 0, message: error.message || 'The request could not be handled.' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ status: 0, message: GENERIC_5XX });
  });
});
