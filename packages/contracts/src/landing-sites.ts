// Adding a landing site and editing its branding (Admin, issue 33). The schemas check types and sizes; the formats,
// all fields at once and in one wording with the console's forms, are landing-site-rules.ts's (brandingIssues).
import { Type, type Static } from 'typebox';
import { Envelope } from './envelope.js';
import { LANDING_SITE_LIMITS, LANDING_SITE_MESSAGES } from './landing-site-rules.js';
import { SaveLegalTextBody } from './intake.js';

const brandingFields = {
  display_name: Type.String({
    maxLength: LANDING_SITE_LIMITS.displayName,
    errorMessage: LANDING_SITE_MESSAGES.displayNameInvalid,
  }),
  mail_sender: Type.String({
    maxLength: LANDING_SITE_LIMITS.mailSender,
    errorMessage: LANDING_SITE_MESSAGES.mailSenderInvalid,
  }),
  footer_contact: Type.String({
    maxLength: LANDING_SITE_LIMITS.email,
    errorMessage: LANDING_SITE_MESSAGES.footerContactInvalid,
  }),
  /** Empty or absent: none. */
  support_phone: Type.Optional(
    Type.String({ maxLength: LANDING_SITE_LIMITS.supportPhone, errorMessage: LANDING_SITE_MESSAGES.supportPhone }),
  ),
  /** Empty or absent: the mails link to this server's own portal (PUBLIC_URL). */
  portal_url: Type.Optional(
    Type.String({ maxLength: LANDING_SITE_LIMITS.portalUrl, errorMessage: LANDING_SITE_MESSAGES.portalUrl }),
  ),
};

/** A new site: its key (never changed later: orders and links carry it), branding and first legal texts. */
export const CreateLandingSiteBody = Type.Object({
  key: Type.String({ maxLength: LANDING_SITE_LIMITS.key, errorMessage: LANDING_SITE_MESSAGES.key }),
  ...brandingFields,
  disclaimer: SaveLegalTextBody.properties.disclaimer,
  fee_text: SaveLegalTextBody.properties.fee_text,
});
export type CreateLandingSiteBody = Static<typeof CreateLandingSiteBody>;

/** A site's branding, with the version the Admin saw: a change made meanwhile is named back, never overwritten. */
export const SaveBrandingBody = Type.Object({
  ...brandingFields,
  version: Type.Integer({ minimum: 1, errorMessage: LANDING_SITE_MESSAGES.version }),
});
export type SaveBrandingBody = Static<typeof SaveBrandingBody>;

/** The site after a change: its new version (and where its logo is now served, after a logo upload). */
export const LandingSiteChange = Type.Object({
  key: Type.String(),
  version: Type.Integer(),
  logo_url: Type.String(),
});
export type LandingSiteChange = Static<typeof LandingSiteChange>;
export const LandingSiteChangeResponse = Envelope(LandingSiteChange);

/** The 409 of a key or a name another site has: which field, so a form can say it there. */
export const LandingSiteConflict = Type.Object({
  field: Type.Union([Type.Literal('key'), Type.Literal('display_name')]),
});
export type LandingSiteConflict = Static<typeof LandingSiteConflict>;

/** The logo's address carries its hash (`?v=`), so a new logo is a new address and an old one may be cached. */
export const LogoQuery = Type.Object({ v: Type.Optional(Type.String({ maxLength: 64 })) });
