// Branding of the public portal per landing site (spec §1, DESIGN §2 landing_sites).
import type { Kysely } from 'kysely';
import type { LandingSiteBranding } from '@eta/contracts';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { findBranding } from './landing-sites.repository.js';

export class LandingSitesService {
  constructor(private readonly db: Kysely<DB>) {}

  async branding(key: string): Promise<LandingSiteBranding> {
    const site = await findBranding(this.db, key);
    if (!site) throw new AppError('NOT_FOUND', 'Unknown landing site.');
    return site;
  }
}
