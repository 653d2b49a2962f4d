// POST /api/intake/orders (DESIGN §4, docs/INTAKE.md): a landing site's application form hands over a paid
// application. The guard (plugins/auth.ts) proves the site by its intake key; the intake service checks every
// field at once and makes the order. The body schema documents the call; its checks run in the service, so a
// bad application is answered with every failing field, not only the first.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  IDEMPOTENCY_KEY_PATTERN,
  IntakeOrderBody,
  IntakeOrderResponse,
  IntakeValidationFailure,
  MessageOnly,
  intakeExample,
} from '@eta/contracts';
import { requireIntakeCaller } from '../../plugins/auth.js';

const DESCRIPTION = `A landing site's application form hands over a paid application; the answer is the new order's id and
its tracking page. Authenticate with the landing site's intake key: \`Authorization: Bearer etak_…\` (an Admin creates
it on the Landing Sites page). Every request carries an \`Idempotency-Key\` (1-255 printable characters): send the
same key again with the same body and you get the same order back (200), never a second one; the same key with a
different body is a 409. Keys are kept at least 24 hours.

A bad application gets 400 with every failing field: \`{ "status": 0, "code": "VALIDATION_FAILED", "message": "…",
"errors": [{ "field": "passport_number", "message": "…" }] }\`; nothing is stored. Other answers: 401 (missing, wrong or
retired key), 403 (the body names another landing site), 409 \`IDEMPOTENCY_CONFLICT\`, 413 (a body over 1 MB), 429
(too many orders per second for this key: see Retry-After), 503 (the desk's database is restarting or busy: see
Retry-After, then send the same request again). Countries: \`country_on_passport\` is stored as ISO 3166
alpha-3, every other country as its English name; either an English name or an ISO code is accepted. See docs/INTAKE.md.`;

const intakeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const intake = app.services.intake;
  const example = intakeExample(new Date().toISOString().slice(0, 10));

  app.post(
    '/api/intake/orders',
    {
      schema: {
        tags: ['intake'],
        summary: 'Hand over a paid application (landing sites)',
        description: DESCRIPTION,
        security: [{ intakeKey: [] }],
        headers: Type.Object({
          'idempotency-key': Type.String({
            pattern: IDEMPOTENCY_KEY_PATTERN,
            description: 'The same for every retry of one application.',
            examples: ['checkout-7f3a9c2e'],
          }),
        }),
        body: Type.Object(IntakeOrderBody.properties, { additionalProperties: false, examples: [example] }),
        response: {
          200: Type.Object(IntakeOrderResponse.properties, { description: 'The same request again: the same order.' }),
          201: Type.Object(IntakeOrderResponse.properties, { description: 'The order is made.' }),
          400: IntakeValidationFailure,
          401: MessageOnly,
          403: MessageOnly,
          409: MessageOnly,
          413: MessageOnly,
          429: MessageOnly,
          503: MessageOnly,
        },
      },
      // The service checks the body (every failing field at once, with the cross-field rules); the schema above
      // describes the call for /api/docs.
      validatorCompiler: () => () => true,
    },
    async (request, reply) => {
      const caller = requireIntakeCaller(request.intakeCaller);
      const { created, result } = await intake.createOrder(
        caller,
        request.headers['idempotency-key'],
        request.body,
        request.ip,
      );
      return reply.code(created ? 201 : 200).send({
        status: 1 as const,
        message: created
          ? `Order ${result.order_id} is placed.`
          : `Order ${result.order_id} was placed by this request before.`,
        data: result,
      });
    },
  );
};

export default intakeRoutes;
