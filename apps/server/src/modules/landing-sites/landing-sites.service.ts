// Branding of the public portal per landing site (spec §1, DESIGN §2 landing_sites).
import type { Kysely } from 'kysely';
import { DEFAULT_LANDING_SITE, type LandingSiteBranding } from '@eta/contracts';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { findBranding } from './landing-sites.repository.js';

export class LandingSitesService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly translateWidgetUrl: string | null,
  ) {}

  /** A site's branding; an unknown key (a mistyped or retired link) gets the default site's, never a bare page. */
  async branding(key: string): Promise<LandingSiteBranding> {
    const site = (await findBranding(this.db, key)) ?? (await findBranding(this.db, DEFAULT_LANDING_SITE));
    if (!site) throw new AppError('NOT_FOUND', 'Unknown landing site.');
    return { ...site, translate_widget_url: this.translateWidgetUrl };
  }
}
