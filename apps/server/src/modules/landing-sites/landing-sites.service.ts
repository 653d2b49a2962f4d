// Landing sites (spec §1, DESIGN §2): the public portal's branding per site, and for the Admin (issue 20) each
// site's versioned legal texts and its intake keys; (issue 33) adding a site and editing its branding and logo. A key
// is shown once when it is made and stored only as the hash of its secret; no call returns a stored key or its hash.
// Every change is one transaction with its audit row; a branding or logo change carries the site's version.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import {
  brandingIssues,
  DEFAULT_LANDING_SITE,
  isLandingSiteKey,
  LANDING_SITE_MESSAGES,
  LOGO_FIELDS,
  normalizeBranding,
  type CreateLandingSiteBody,
  type IntakeKeyCreated,
  type LandingSiteAdmin,
  type LandingSiteBranding,
  type LandingSiteBrandingValues,
  type LandingSiteChange,
  type LandingSiteConflict,
  type LegalTextVersion,
  type SaveBrandingBody,
  type SaveLegalTextBody,
} from '@eta/contracts';
import type { DB, Staff } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { DocumentStoreUnavailableError, type DocumentStore } from '../../lib/storage/document-store.js';
import { utcText } from '../../lib/time.js';
import { writeAudit, type Actor } from '../audit/audit.repository.js';
import { generateIntakeKey } from '../intake/intake-keys.js';
import { rotateIntakeKey, selectUsableIntakeKeys } from '../intake/intake.repository.js';
import {
  findBranding,
  insertLandingSite,
  insertLegalText,
  lockLandingSite,
  lockSiteForChange,
  lockSiteNames,
  selectCurrentLegalText,
  selectLandingSites,
  selectLastSiteChange,
  selectLegalText,
  selectLegalVersions,
  selectSiteLogo,
  selectSiteNamed,
  siteExists,
  updateLandingSite,
  type LegalTextRow,
  type SiteForChange,
} from './landing-sites.repository.js';
import type { LogoForm } from './logo-form.js';
import { checkLogo } from './site-logo.js';

/** A new site's portal menu: the portal's own pages (a relative link must be one, contracts PORTAL_PAGES). */
const NEW_SITE_MENU = [
  { label: 'Home', url: '/track-order' },
  { label: 'FAQ', url: '/faq' },
  { label: 'Contact', url: '/contact' },
];

/** Where an uploaded logo is served: the public logo route, its hash in the address so a new logo is a new address. */
export const logoUrlOf = (key: string, sha256: string): string =>
  `/api/front/landing-sites/${key}/logo?v=${sha256.slice(0, 16)}`;

/** The branding's issues as one 400 naming every field (the first one's message leads). */
function assertBranding(values: LandingSiteBrandingValues, key?: string): void {
  const issues: Record<string, string> = { ...brandingIssues(values) };
  if (key !== undefined && !isLandingSiteKey(key)) {
    Object.assign(issues, { key: key === '' ? LANDING_SITE_MESSAGES.keyRequired : LANDING_SITE_MESSAGES.key });
  }
  const first = Object.values(issues)[0];
  if (first) throw new AppError('VALIDATION_FAILED', first, { fields: issues });
}

const conflict = (field: LandingSiteConflict['field'], message: string) =>
  new AppError('CONFLICT', message, { fields: { [field]: message }, data: { field } satisfies LandingSiteConflict });

/** The branding columns an audit row shows before and after. */
const brandingOf = (site: SiteForChange) => ({
  display_name: site.display_name,
  mail_sender: site.mail_sender,
  footer_contact: site.footer_contact,
  support_phone: site.support_phone,
  portal_url: site.portal_url,
});

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
    /** Where uploaded logos live: the document store as it is (a logo is public, so it is not encrypted). */
    private readonly logoStore: DocumentStore,
    private readonly log: FastifyBaseLogger,
    private readonly translateWidgetUrl: string | null,
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
        version: site.version,
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

  /**
   * A new site: its key and branding, checked all at once (400 naming each field), its first legal texts as version
   * 1 and the portal's own menu; no logo yet and no intake key. A key or a name another site has is a 409 naming the
   * field. One transaction with its audit row.
   */
  async create(staff: Staff, actor: Actor, body: CreateLandingSiteBody): Promise<LandingSiteChange> {
    const key = body.key.trim();
    assertBranding(body, key);
    const branding = normalizeBranding(body);
    const disclaimer = body.disclaimer.trim();
    const feeText = body.fee_text.trim();
    await this.db.transaction().execute(async (trx) => {
      await lockSiteNames(trx);
      if (await siteExists(trx, key)) {
        throw conflict('key', `There is already a landing site with the key "${key}". Please choose another key.`);
      }
      await this.assertNameFree(trx, branding.display_name, null);
      await insertLandingSite(trx, { key, ...branding, menu_links: NEW_SITE_MENU });
      await insertLegalText(trx, { site: key, disclaimer, feeText, staffId: staff.id, staffName: staff.name });
      await writeAudit(trx, actor, [
        { action: 'landing-site.create', target: key, after: { ...branding, legal_version: 1 } },
      ]);
    });
    return { key, version: 1, logo_url: '' };
  }

  /** The site's branding, checked all at once, saved over the version the Admin saw (409 when it changed since). */
  async saveBranding(actor: Actor, key: string, body: SaveBrandingBody): Promise<LandingSiteChange> {
    assertBranding(body);
    const branding = normalizeBranding(body);
    const result = await this.db.transaction().execute(async (trx) => {
      await lockSiteNames(trx);
      const site = await lockSiteForChange(trx, key);
      if (!site) throw new AppError('NOT_FOUND', `There is no landing site "${key}".`);
      if (site.version !== body.version) return null;
      await this.assertNameFree(trx, branding.display_name, key);
      const version = await updateLandingSite(trx, key, branding);
      await writeAudit(trx, actor, [
        {
          action: 'landing-site.branding',
          target: key,
          before: { ...brandingOf(site), version: site.version },
          after: { ...branding, version },
        },
      ]);
      return { key, version, logo_url: site.logo_url };
    });
    if (!result) throw await this.staleError(key);
    return result;
  }

  /**
   * A new logo for the site, judged by its content (PNG or JPEG, at most 512 KB, 16 to 4096 pixels), over the version
   * the Admin saw. The file is stored before the transaction and removed again when the change is refused; the logo
   * it replaces is removed once the change is committed. Mails and the portal use it from then on.
   */
  async uploadLogo(actor: Actor, key: string, form: LogoForm): Promise<LandingSiteChange> {
    if (!form.file) {
      throw new AppError('VALIDATION_FAILED', LANDING_SITE_MESSAGES.logoRequired, {
        fields: { [LOGO_FIELDS.file]: LANDING_SITE_MESSAGES.logoRequired },
      });
    }
    const version = Number(form.version);
    if (!/^\d{1,9}$/.test(form.version ?? '') || version < 1) {
      throw new AppError('VALIDATION_FAILED', LANDING_SITE_MESSAGES.version, {
        fields: { [LOGO_FIELDS.version]: LANDING_SITE_MESSAGES.version },
      });
    }
    const logo = await checkLogo(form.file.content);
    if (!(await findBranding(this.db, key))) throw new AppError('NOT_FOUND', `There is no landing site "${key}".`);
    const stored = await this.storeLogo(form.file.content, logo.extension, key);
    try {
      const result = await this.db.transaction().execute(async (trx) => {
        const site = await lockSiteForChange(trx, key);
        if (!site) throw new AppError('NOT_FOUND', `There is no landing site "${key}".`);
        if (site.version !== version) return null;
        const logoUrl = logoUrlOf(key, stored.sha256);
        const next = await updateLandingSite(trx, key, {
          logo_url: logoUrl,
          logo_key: stored.key,
          logo_content_type: logo.contentType,
          logo_sha256: stored.sha256,
        });
        await writeAudit(trx, actor, [
          {
            action: 'landing-site.logo',
            target: key,
            before: { logo_url: site.logo_url, version: site.version },
            after: {
              logo_url: logoUrl,
              content_type: logo.contentType,
              width: logo.width,
              height: logo.height,
              size: stored.size,
              sha256: stored.sha256,
              version: next,
            },
          },
        ]);
        return { change: { key, version: next, logo_url: logoUrl }, replaced: site.logo_key };
      });
      if (!result) throw await this.staleError(key);
      if (result.replaced) void this.removeUnused(result.replaced);
      return result.change;
    } catch (err) {
      await this.removeUnused(stored.key);
      throw err;
    }
  }

  /** A site's uploaded logo for the public logo route: its bytes, type and hash; 404 when it has none. */
  async logo(key: string): Promise<{ content: Buffer; contentType: string; sha256: string }> {
    const row = await selectSiteLogo(this.db, key);
    if (!row?.logo_key) throw new AppError('NOT_FOUND', `Landing site "${key}" has no uploaded logo.`);
    const content = await this.logoStore.read(row.logo_key);
    return { content, contentType: row.logo_content_type!, sha256: row.logo_sha256! };
  }

  private async assertNameFree(trx: Parameters<typeof lockSiteNames>[0], name: string, key: string | null) {
    const other = await selectSiteNamed(trx, name, key);
    if (other) {
      throw conflict(
        'display_name',
        `The landing site "${other.key}" is already named "${other.display_name}". Please choose another name.`,
      );
    }
  }

  private async staleError(key: string): Promise<AppError> {
    const last = await selectLastSiteChange(this.db, key);
    const who = last?.actor_name ?? 'someone else';
    const when = last ? ` at ${utcText(new Date(last.at))}` : '';
    return new AppError(
      'STALE_VERSION',
      `Landing site "${key}" was changed by ${who}${when} after you opened it. Nothing was overwritten: ` +
        'reload the page, check its branding and try again.',
    );
  }

  /** The logo into the store; a store that fails is a 503 saying that the site was not changed. */
  private async storeLogo(content: Buffer, extension: string, key: string) {
    try {
      return await this.logoStore.put(content, { extension });
    } catch (err) {
      if (!(err instanceof DocumentStoreUnavailableError)) throw err;
      if (err.key) void this.removeUnused(err.key);
      throw err.saying(
        `The document store is not answering, so the logo was not stored and landing site "${key}" was not ` +
          'changed. Please upload it again in a minute; if it keeps failing, tell your administrator.',
      );
    }
  }

  /** Removes a logo file no row names; one that stays is logged with its key, for the operator to remove. */
  private async removeUnused(key: string): Promise<void> {
    await this.logoStore.delete(key).catch((err: unknown) => {
      this.log.error({ err, key }, 'a logo no site uses may be left in the document store under this key');
    });
  }
}
