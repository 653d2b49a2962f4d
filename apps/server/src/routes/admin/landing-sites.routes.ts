// Landing Sites (Admin, issue 20): each site's branding, versioned legal texts and intake keys.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  IntakeKeyBody,
  IntakeKeyResponse,
  LandingSiteKeyParams,
  LandingSiteListResponse,
  LegalTextResponse,
  LegalVersionParams,
  SaveLegalTextBody,
  SaveLegalTextResponse,
} from '@eta/contracts';
import { actorOf, requireStaff } from '../../plugins/auth.js';

const landingSiteAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const landingSites = app.services.landingSites;

  app.get(
    '/api/admin/landing-sites',
    { schema: { tags: ['landing sites'], response: { 200: LandingSiteListResponse } } },
    async () => ({ status: 1 as const, message: 'OK', data: await landingSites.list() }),
  );

  app.get(
    '/api/admin/landing-sites/:key/legal/:version',
    { schema: { tags: ['landing sites'], params: LegalVersionParams, response: { 200: LegalTextResponse } } },
    async (request) => ({
      status: 1 as const,
      message: 'OK',
      data: await landingSites.legalText(request.params.key, request.params.version),
    }),
  );

  app.post(
    '/api/admin/landing-sites/:key/intake-key',
    {
      schema: {
        tags: ['landing sites'],
        description:
          'A new intake key for the site, shown in this answer only. Keys that worked until now stop at once, or ' +
          'after `graceMinutes`.',
        params: LandingSiteKeyParams,
        body: IntakeKeyBody,
        response: { 200: IntakeKeyResponse },
      },
    },
    async (request) => {
      const staff = requireStaff(request.staff);
      const data = await landingSites.createIntakeKey(
        staff,
        actorOf(staff, request.ip),
        request.params.key,
        request.body.graceMinutes ?? 0,
      );
      return {
        status: 1 as const,
        message: 'Copy the new key now: it is shown only this once.',
        data,
      };
    },
  );

  app.post(
    '/api/admin/landing-sites/:key/legal',
    {
      schema: {
        tags: ['landing sites'],
        params: LandingSiteKeyParams,
        body: SaveLegalTextBody,
        response: { 200: SaveLegalTextResponse },
      },
    },
    async (request) => {
      const staff = requireStaff(request.staff);
      const { version, created } = await landingSites.saveLegalText(
        staff,
        actorOf(staff, request.ip),
        request.params.key,
        request.body,
      );
      const message = created
        ? `Saved as version ${version}. New orders agree to it from now on.`
        : `The texts are unchanged: version ${version} stays in force.`;
      return { status: 1 as const, message, data: { version } };
    },
  );
};

export default landingSiteAdminRoutes;
