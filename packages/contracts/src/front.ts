import { Type, type Static } from 'typebox';
import { Envelope } from './envelope.js';

/** Public branding of a landing site (spec §1): logo, menu links, footer contact. */
export const LandingSiteBranding = Type.Object({
  key: Type.String(),
  display_name: Type.String(),
  logo_url: Type.String(),
  menu_links: Type.Array(Type.Object({ label: Type.String(), url: Type.String() })),
  footer_contact: Type.String(),
  support_phone: Type.Union([Type.String(), Type.Null()]),
});
export type LandingSiteBranding = Static<typeof LandingSiteBranding>;
export const LandingSiteParams = Type.Object({ key: Type.String({ pattern: '^[a-z0-9-]{1,40}$' }) });
export const LandingSiteResponse = Envelope(LandingSiteBranding);

export const HealthResponse = Envelope(Type.Object({ database: Type.String() }));
