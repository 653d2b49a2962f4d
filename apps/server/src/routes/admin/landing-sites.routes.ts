// Landing Sites (Admin, issue 20): each site's branding, versioned legal texts and intake keys; (issue 33) a new
// site, its branding and its logo.
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreateLandingSiteBody,
  LandingSiteChangeResponse,
  LOGO_FIELDS,
  SaveBrandingBody,
  IntakeKeyBody,
  IntakeKeyResponse,
  LandingSiteKeyParams,
  LandingSiteListResponse,
  LegalTextResponse,
  LegalVersionParams,
  SaveLegalTextBody,
  SaveLegalTextResponse,
} from '@eta/contracts';
import { LOGO_FORM_LIMITS, readLogoForm, refuseOversizeLogo } from '../../modules/landing-sites/logo-form.js';
import { actorOf, requireStaff } from '../../plugins/auth.js';

const landingSiteAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const landingSites = app.services.landingSites;
  // Multipart for the logo only; the image is capped here, so a larger one is refused while it streams in.
  await app.register(multipart, { limits: LOGO_FORM_LIMITS });

  app.post(
    '/api/admin/landing-sites',
    {
      schema: {
        tags: ['landing sites'],
        description:
          'A new landing site: its key (lowercase letters, digits and hyphens; never changed later), branding and ' +
          'first legal texts. A key or a name another site has answers 409. Upload its logo and make its intake key next.',
        body: CreateLandingSiteBody,
        response: { 201: LandingSiteChangeResponse },
      },
    },
    async (request, reply) => {
      const staff = requireStaff(request.staff);
      const data = await landingSites.create(staff, actorOf(staff, request.ip), request.body);
      return reply.code(201).send({
        status: 1 as const,
        message: `Landing site ${request.body.display_name.trim()} added. Make its intake key so its forms can send orders.`,
        data,
      });
    },
  );

  app.put(
    '/api/admin/landing-sites/:key/branding',
    {
      schema: {
        tags: ['landing sites'],
        description:
          "The site's name, mail sender, footer contact, support phone and portal URL, over the `version` the Admin " +
          'saw (409 STALE_VERSION when it changed since). Mails queued from now on and the portal use them.',
        params: LandingSiteKeyParams,
        body: SaveBrandingBody,
        response: { 200: LandingSiteChangeResponse },
      },
    },
    async (request) => {
      const staff = requireStaff(request.staff);
      const data = await landingSites.saveBranding(actorOf(staff, request.ip), request.params.key, request.body);
      return { status: 1 as const, message: `The branding of ${request.body.display_name.trim()} was saved.`, data };
    },
  );

  app.post(
    '/api/admin/landing-sites/:key/logo',
    {
      schema: {
        tags: ['landing sites'],
        consumes: ['multipart/form-data'],
        description:
          `multipart/form-data: ${LOGO_FIELDS.file} (a PNG or JPEG image judged by its content, at most 512 KB, 16 to ` +
          `4096 pixels) and ${LOGO_FIELDS.version} (the site's version the Admin saw). Mails and the portal show it ` +
          'from then on, served by GET /api/front/landing-sites/:key/logo.',
        params: LandingSiteKeyParams,
        response: { 200: LandingSiteChangeResponse },
      },
      onRequest: async (request, reply) => refuseOversizeLogo(request, reply),
    },
    async (request, reply) => {
      const staff = requireStaff(request.staff);
      const form = await readLogoForm(request, reply);
      const data = await landingSites.uploadLogo(actorOf(staff, request.ip), request.params.key, form);
      return { status: 1 as const, message: 'The new logo was saved: mails and the portal show it from now on.', data };
    },
  );

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
