// Landing sites (spec §1, DESIGN §2): the public portal's branding per site, and for the Admin (issue 20) each
// site's versioned legal texts and its intake keys. A key is shown once when it is made and stored only as the
// hash of its secret; no call returns a stored key or its hash. Every change is audited.
import type { Kysely } from 'kysely';
import {
  DEFAULT_LANDING_SITE,
  type IntakeKeyCreated,
  type LandingSiteAdmin,
  type LandingSiteBranding,
  type LegalTextVersion,
  type SaveLegalTextBody,
} from '@eta/contracts';
import type { DB, Staff } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { writeAudit, type Actor } from '../audit/audit.repository.js';
import { generateIntakeKey } from '../intake/intake-keys.js';
import { rotateIntakeKey, selectUsableIntakeKeys } from '../intake/intake.repository.js';
import {
  findBranding,
  insertLegalText,
  lockLandingSite,
  selectLandingSites,
  selectCurrentLegalText,
  selectLegalText,
  selectLegalVersions,
  type LegalTextRow,
} from './landing-sites.repository.js';

const iso = (at: Date | string) => new Date(at).toISOString();
const legalVersion = (row: LegalTextRow): LegalTextVersion => ({
  version: row.version,
  disclaimer: row.disclaimer,
  fee_text: row.fee_text,
  created_at: iso(row.created_at),
  ...(row.created_by ? { created_by: row.created_by } : {}),
});

export class LandingSitesService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly translateWidgetUrl: string | null,
    /** Told when a site's keys change, so no process-local copy of a retired key is used again. */
    /** Tells every process that a site's keys changed (their caches of key rows). */
    private readonly onKeysChanged: (site: string) => Promise<void> = async () => {},
  ) {}

  /** A site's branding; an unknown key (a mistyped or retired link) gets the default site's, never a bare page. */
  async branding(key: string): Promise<LandingSiteBranding> {
    const site = (await findBranding(this.db, key)) ?? (await findBranding(this.db, DEFAULT_LANDING_SITE));
    if (!site) throw new AppError('NOT_FOUND', 'Unknown landing site.');
    return { ...site, translate_widget_url: this.translateWidgetUrl };
  }

  /** Every site with its branding, its current legal texts and their history, and its working keys. */
  async list(): Promise<LandingSiteAdmin[]> {
    const [sites, versions, keys] = await Promise.all([
      selectLandingSites(this.db),
      selectLegalVersions(this.db),
      selectUsableIntakeKeys(this.db),
    ]);
    return sites.map((site) => {
      const history = versions.filter((v) => v.landing_site === site.key);
      return {
        key: site.key,
        display_name: site.display_name,
        logo_url: site.logo_url,
        ...(site.portal_url ? { portal_url: site.portal_url } : {}),
        mail_sender: site.mail_sender,
        footer_contact: site.footer_contact,
        ...(site.support_phone ? { support_phone: site.support_phone } : {}),
        menu_links: site.menu_links,
        legal: legalVersion(history[0]!),
        legalHistory: history.map(({ version, created_at, created_by }) => ({
          version,
          created_at: iso(created_at),
          ...(created_by ? { created_by } : {}),
        })),
        intakeKeys: keys
          .filter((k) => k.landing_site === site.key)
          .map((k) => ({
            id: k.id,
            created_at: iso(k.created_at),
            ...(k.created_by ? { created_by: k.created_by } : {}),
            ...(k.last_used_at ? { last_used_at: iso(k.last_used_at) } : {}),
            orders: k.orders,
            ...(k.retires_at ? { retires_at: iso(k.retires_at) } : {}),
          })),
      };
    });
  }

  async legalText(site: string, version: number): Promise<LegalTextVersion> {
    const row = await selectLegalText(this.db, site, version);
    if (!row) throw new AppError('NOT_FOUND', `Landing site "${site}" has no legal texts version ${version}.`);
    return legalVersion(row);
  }

  /**
   * A new intake key for the site (the first, or a rotation): the keys that worked until now stop at once or after
   * `graceMinutes`. The whole key is in the answer this once.
   */
  async createIntakeKey(staff: Staff, actor: Actor, site: string, graceMinutes: number): Promise<IntakeKeyCreated> {
    const key = generateIntakeKey();
    const retiring = await this.db.transaction().execute(async (trx) => {
      if (!(await lockLandingSite(trx, site))) throw new AppError('NOT_FOUND', `There is no landing site "${site}".`);
      const retired = await rotateIntakeKey(
        trx,
        { id: key.id, site, secretSha256: key.secretSha256, createdBy: staff.id },
        graceMinutes,
      );
      await writeAudit(trx, actor, [
        {
          action: 'landing-site.intake-key',
          target: site,
          before: { keys: retired.map((r) => r.id) },
          after: { key: key.id, retiring: retired.map((r) => ({ id: r.id, retires_at: iso(r.retires_at) })) },
        },
      ]);
      return retired;
    });
    await this.onKeysChanged(site);
    return {
      intakeKey: key.key,
      id: key.id,
      retiring: retiring.map((r) => ({ id: r.id, retires_at: iso(r.retires_at) })),
    };
  }

  /**
   * Saves the site's disclaimer and fee text as a new version (never changing an old one). Texts equal to the
   * current version's make no new version. Returns the version in force and whether it is new.
   */
  async saveLegalText(
    staff: Staff,
    actor: Actor,
    site: string,
    body: SaveLegalTextBody,
  ): Promise<{ version: number; created: boolean }> {
    const disclaimer = body.disclaimer.trim();
    const feeText = body.fee_text.trim();
    return this.db.transaction().execute(async (trx) => {
      if (!(await lockLandingSite(trx, site))) throw new AppError('NOT_FOUND', `There is no landing site "${site}".`);
      const current = await selectCurrentLegalText(trx, site);
      if (current && current.disclaimer === disclaimer && current.fee_text === feeText) {
        return { version: current.version, created: false };
      }
      const version = await insertLegalText(trx, {
        site,
        disclaimer,
        feeText,
        staffId: staff.id,
        staffName: staff.name,
      });
      await writeAudit(trx, actor, [
        {
          action: 'landing-site.legal-text',
          target: site,
          before: current ? { version: current.version } : undefined,
          after: { version, disclaimer, fee_text: feeText },
        },
      ]);
      return { version, created: true };
    });
  }
}
