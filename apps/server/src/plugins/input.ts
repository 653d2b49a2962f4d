// Input is checked at one place for every route: JSON bodies are validated strictly (no type coercion, a
// string is never an array), numbers in query strings and paths are decimal digits only, and text that
// PostgreSQL cannot store (NUL) or that is not valid Unicode (a lone surrogate) is refused with a 400.
import fp from 'fastify-plugin';
import { Ajv, type Options } from 'ajv';
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import { AppError } from '../lib/errors.js';

type FastifyValidationResult = ReturnType<FastifySchemaCompiler<unknown>>;

/**
 * Fastify's own Ajv settings except coercion, plus `verbose` (the error handler reads the failed schema)
 * and the `errorMessage` keyword, with which a contract schema carries the spec's own wording.
 */
function buildAjv(coerceTypes: boolean): Ajv {
  const options: Options = { coerceTypes, useDefaults: true, removeAdditional: true, allErrors: false, verbose: true };
  return new Ajv(options).addKeyword('errorMessage');
}
const strict = buildAjv(false);
const fromText = buildAjv(true);

const DIGITS = /^\d{1,15}$/;

interface ObjectSchema {
  properties?: Record<string, { type?: unknown }>;
}

/**
 * Query strings and path parameters arrive as text, so their numbers must be coerced — but only from plain
 * decimal digits: Ajv alone would read "0x10" as 16 and "1e3" as 1000.
 */
function digitsOnly(schema: ObjectSchema, validate: FastifyValidationResult): FastifyValidationResult {
  const numeric = Object.entries(schema.properties ?? {})
    .filter(([, s]) => s.type === 'integer' || s.type === 'number')
    .map(([name]) => name);
  if (numeric.length === 0) return validate;
  const wrapped: FastifyValidationResult = (data: unknown) => {
    const values = (data ?? {}) as Record<string, unknown>;
    const bad = numeric.find((name) => values[name] !== undefined && !DIGITS.test(String(values[name])));
    if (bad !== undefined) {
      const issue = { instancePath: `/${bad}`, message: 'must be a whole number written in digits' };
      wrapped.errors = [issue as FastifySchemaValidationError];
      return false;
    }
    const ok = validate(data);
    wrapped.errors = validate.errors;
    return ok;
  };
  return wrapped;
}

const validatorCompiler: FastifySchemaCompiler<unknown> = (route) => {
  if (route.httpPart === 'body') return strict.compile(route.schema as object);
  return digitsOnly(route.schema as ObjectSchema, fromText.compile(route.schema as object));
};

// NUL, or a surrogate half without its partner. Matching a control character is the point here.
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The path (e.g. "body.orderId.3") of the first string that cannot be stored, walking without recursion. */
export function findUnstorableText(root: Record<string, unknown>): string | null {
  const stack: [string, unknown][] = Object.entries(root);
  while (stack.length > 0) {
    const [path, value] = stack.pop()!;
    if (typeof value === 'string') {
      if (UNSTORABLE.test(value)) return path;
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (UNSTORABLE.test(key)) return path;
        stack.push([`${path}.${key}`, child]);
      }
    }
  }
  return null;
}

/** Refuses (400 INVALID_TEXT, naming the field) input holding text PostgreSQL cannot store. */
export function assertStorableText(parts: Record<string, unknown>): void {
  const path = findUnstorableText(parts);
  if (path === null) return;
  const field = path.split('.').slice(1).join('.') || path;
  throw new AppError(
    'INVALID_TEXT',
    `${field} contains a character that cannot be stored (a NUL byte or broken Unicode). Please remove it and try again.`,
    { fields: { [field]: 'contains a character that cannot be stored' } },
  );
}

export default fp(async (app) => {
  app.setValidatorCompiler(validatorCompiler);
  // A plain callback: every request passes here, and an async hook costs each of them a promise or two.
  app.addHook('preValidation', (request, _reply, done) => {
    try {
      assertStorableText({ body: request.body, query: request.query, params: request.params });
    } catch (err) {
      return done(err as Error);
    }
    done();
  });
});
