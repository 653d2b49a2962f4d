// All SQL of landing sites: public branding, the Admin's view of the sites, their legal texts as versions (a save is
// a new row, numbered after the site's last one while the site's row is locked), and a site's own row: added, its
// branding and logo changed under its version.
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { DB, LandingSitesTable } from '../../db/schema.js';

type Db = Kysely<DB> | Transaction<DB>;

/** Public branding of a landing site (never its keys). */
export const findBranding = (db: Kysely<DB>, key: string) =>
  db
    .selectFrom('landing_sites')
    .select(['key', 'display_name', 'logo_url', 'menu_links', 'footer_contact', 'support_phone'])
    .where('key', '=', key)
    .executeTakeFirst();

export type LandingSiteRow = Omit<
  Selectable<LandingSitesTable>,
  'created_at' | 'personal_data_retention_months' | 'logo_key' | 'logo_content_type' | 'logo_sha256'
>;

export const selectLandingSites = (db: Db): Promise<LandingSiteRow[]> =>
  db
    .selectFrom('landing_sites')
    .select([
      'key',
      'display_name',
      'logo_url',
      'menu_links',
      'footer_contact',
      'mail_sender',
      'support_phone',
      'portal_url',
      'version',
    ])
    .orderBy('key')
    .execute();

export interface LegalTextRow {
  landing_site: string;
  version: number;
  disclaimer: string;
  fee_text: string;
  created_at: Date;
  created_by: string | null;
}

/** Every site's versions, newest first; only the newest of each carries its texts. Index: legal_texts primary key. */
export async function selectLegalVersions(db: Db): Promise<LegalTextRow[]> {
  const { rows } = await sql<LegalTextRow>`
    SELECT t.landing_site, t.version, t.created_at, coalesce(t.created_by_name, s.name) AS created_by,
           CASE WHEN t.version = max(t.version) OVER w THEN t.disclaimer ELSE '' END AS disclaimer,
           CASE WHEN t.version = max(t.version) OVER w THEN t.fee_text ELSE '' END AS fee_text
      FROM legal_texts t LEFT JOIN staff s ON s.id = t.created_by
    WINDOW w AS (PARTITION BY t.landing_site)
     ORDER BY t.landing_site, t.version DESC`.execute(db);
  return rows;
}

export async function selectLegalText(db: Db, site: string, version: number): Promise<LegalTextRow | undefined> {
  const { rows } = await sql<LegalTextRow>`
    SELECT t.landing_site, t.version, t.disclaimer, t.fee_text, t.created_at,
           coalesce(t.created_by_name, s.name) AS created_by
      FROM legal_texts t LEFT JOIN staff s ON s.id = t.created_by
     WHERE t.landing_site = ${site} AND t.version = ${version}`.execute(db);
  return rows[0];
}

/** The site's newest version. Index: legal_texts primary key (backwards). */
export async function selectCurrentLegalText(db: Db, site: string): Promise<LegalTextRow | undefined> {
  const { rows } = await sql<LegalTextRow>`
    SELECT landing_site, version, disclaimer, fee_text, created_at, created_by_name AS created_by
      FROM legal_texts WHERE landing_site = ${site} ORDER BY version DESC LIMIT 1`.execute(db);
  return rows[0];
}

/** Locks a site's row for a change of its keys or texts (changes of one site run one after the other). */
export async function lockLandingSite(trx: Transaction<DB>, key: string): Promise<boolean> {
  const { rows } = await sql`SELECT key FROM landing_sites WHERE key = ${key} FOR UPDATE`.execute(trx);
  return rows.length === 1;
}

/** The site's next version of its legal texts (call with the site locked); returns its number. */
export async function insertLegalText(
  trx: Transaction<DB>,
  text: { site: string; disclaimer: string; feeText: string; staffId: number; staffName: string },
): Promise<number> {
  const { rows } = await sql<{ version: number }>`
    INSERT INTO legal_texts (landing_site, version, disclaimer, fee_text, created_by, created_by_name)
    SELECT ${text.site}, coalesce(max(version), 0) + 1, ${text.disclaimer}, ${text.feeText}, ${text.staffId},
           ${text.staffName}
      FROM legal_texts WHERE landing_site = ${text.site}
    RETURNING version`.execute(trx);
  return rows[0]!.version;
}

/**
 * Every add and rename runs one after another, so "no other site has this key or name" stays true until commit. Not
 * in the way of anything else: reading a site, taking an order for it (FOR KEY SHARE), a row lock of its keys or texts.
 */
export async function lockSiteNames(trx: Transaction<DB>): Promise<void> {
  await sql`LOCK TABLE landing_sites IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
}

/** The site that already has this key, or another site with this name (any case, spaces around ignored). */
export async function selectSiteNamed(
  trx: Transaction<DB>,
  name: string,
  exceptKey: string | null,
): Promise<{ key: string; display_name: string } | undefined> {
  const { rows } = await sql<{ key: string; display_name: string }>`
    SELECT key, display_name FROM landing_sites
     WHERE lower(trim(display_name)) = lower(${name}) AND key IS DISTINCT FROM ${exceptKey}
     LIMIT 1`.execute(trx);
  return rows[0];
}

export const siteExists = async (trx: Transaction<DB>, key: string): Promise<boolean> =>
  (await trx.selectFrom('landing_sites').select('key').where('key', '=', key).executeTakeFirst()) !== undefined;

export interface SiteBrandingColumns {
  display_name: string;
  mail_sender: string;
  footer_contact: string;
  support_phone: string | null;
  portal_url: string | null;
}

/** A new site with its branding and portal menu; no logo yet (logo_url ''). */
export async function insertLandingSite(
  trx: Transaction<DB>,
  site: SiteBrandingColumns & { key: string; menu_links: { label: string; url: string }[] },
): Promise<void> {
  await trx
    .insertInto('landing_sites')
    .values({ ...site, logo_url: '', menu_links: JSON.stringify(site.menu_links) })
    .execute();
}

export interface SiteForChange extends SiteBrandingColumns {
  key: string;
  version: number;
  logo_url: string;
  logo_key: string | null;
}

/** The site's row, locked for a change of its branding or logo. */
export const lockSiteForChange = (trx: Transaction<DB>, key: string): Promise<SiteForChange | undefined> =>
  trx
    .selectFrom('landing_sites')
    .select([
      'key',
      'version',
      'display_name',
      'mail_sender',
      'footer_contact',
      'support_phone',
      'portal_url',
      'logo_url',
      'logo_key',
    ])
    .where('key', '=', key)
    .forUpdate()
    .executeTakeFirst();

/** New branding or logo columns, and the next version (call with the row locked); returns that version. */
export async function updateLandingSite(
  trx: Transaction<DB>,
  key: string,
  change:
    | SiteBrandingColumns
    | { logo_url: string; logo_key: string; logo_content_type: 'image/png' | 'image/jpeg'; logo_sha256: string },
): Promise<number> {
  const row = await trx
    .updateTable('landing_sites')
    .set({ ...change, version: sql<number>`version + 1` })
    .where('key', '=', key)
    .returning('version')
    .executeTakeFirstOrThrow();
  return row.version;
}

/** The uploaded logo of a site (the public logo route); undefined when the site has none. */
export const selectSiteLogo = (db: Db, key: string) =>
  db
    .selectFrom('landing_sites')
    .select(['logo_key', 'logo_content_type', 'logo_sha256'])
    .where('key', '=', key)
    .where('logo_key', 'is not', null)
    .executeTakeFirst();

/** Who last changed a site's branding or logo, and when (a stale edit's answer). Index: audit_log_action_idx. */
export const selectLastSiteChange = (db: Db, key: string) =>
  db
    .selectFrom('audit_log')
    .select(['actor_name', 'at'])
    .where('action', 'in', ['landing-site.create', 'landing-site.branding', 'landing-site.logo'])
    .where('target', '=', key)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
