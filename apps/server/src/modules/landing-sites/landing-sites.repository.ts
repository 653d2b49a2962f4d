import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** Public branding of a landing site (never the intake key). */
export const findBranding = (db: Kysely<DB>, key: string) =>
  db
    .selectFrom('landing_sites')
    .select(['key', 'display_name', 'logo_url', 'menu_links', 'footer_contact', 'support_phone'])
    .where('key', '=', key)
    .executeTakeFirst();
