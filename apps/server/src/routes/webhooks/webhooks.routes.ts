// The gateways' webhooks (issue 21): no staff session; the gateway's signature over the exact bytes received is
// the proof, so in this scope every body is kept raw (never parsed before it is verified). A bad signature is 400;
// a verified event, new or replayed, is 200 at once (its effects are written in the same request, small and fast).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { MessageOnly } from '@eta/contracts';

const WEBHOOK_BODY_LIMIT = 512 * 1024;

const webhooksRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) =>
    done(null, body),
  );
  const webhooks = app.services.webhooks;
  const answer = Type.Object({ received: Type.Boolean(), duplicate: Type.Boolean() });

  for (const [path, gateway] of [
    ['/api/webhooks/stripe', 'Stripe'],
    ['/api/webhooks/paypal', 'PayPal'],
  ] as const) {
    app.post(
      path,
      {
        schema: {
          tags: ['webhooks'],
          description: `${gateway}'s webhook: paste this URL into ${gateway}'s dashboard. Verified by its signature.`,
          security: [],
          response: { 200: answer, 400: MessageOnly },
        },
      },
      async (request) => {
        const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const { duplicate } = await webhooks.receive(gateway, { rawBody, headers: request.headers }, request.ip);
        return { received: true, duplicate };
      },
    );
  }
};

export default webhooksRoutes;
