// All SQL of landing sites: public branding, the Admin's view of the sites, and their legal texts as versions
// (a save is a new row, numbered after the site's last one while the site's row is locked).
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

export type LandingSiteRow = Omit<Selectable<LandingSitesTable>, 'created_at' | 'personal_data_retention_months'>;

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
