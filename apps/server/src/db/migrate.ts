// Forward-only migrations, bundled in code so the built server carries them (no directory scanning).
import { Migrator, sql, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import * as m001 from './migrations/001-initial-schema.js';
import * as m002 from './migrations/002-order-counters.js';
import * as m003 from './migrations/003-reference-data.js';
import * as m004 from './migrations/004-revoked-sessions.js';
import * as m005 from './migrations/005-mail-outbox.js';
import * as m006 from './migrations/006-invoices.js';
import * as m007 from './migrations/007-administration.js';
import * as m008 from './migrations/008-portal-menu-links.js';
import * as m009 from './migrations/009-new-queue-walk.js';
import * as m010 from './migrations/010-search-statistics.js';
import * as m011 from './migrations/011-new-queue-search.js';
import * as m012 from './migrations/012-search-by-week.js';
import * as m013 from './migrations/013-completed-queue.js';
import * as m014 from './migrations/014-intake.js';
import * as m015 from './migrations/015-counter-stripes.js';
import * as m016 from './migrations/016-payments.js';
import * as m017 from './migrations/017-intake-payment-answer.js';
import * as m018 from './migrations/018-mail-idempotency.js';
import * as m019 from './migrations/019-new-queue-trigrams.js';
import * as m020 from './migrations/020-limit-counters.js';
import * as m021 from './migrations/021-personal-data-encryption.js';
import * as m022 from './migrations/022-access-records.js';
import * as m023 from './migrations/023-retention.js';
import * as m024 from './migrations/024-audit-without-addresses.js';
import * as m025 from './migrations/025-search-whole-values.js';
import * as m026 from './migrations/026-mail-claim-boot.js';
import * as m027 from './migrations/027-landing-site-branding.js';
import * as m028 from './migrations/028-future-name-search.js';
import * as m029 from './migrations/029-search-sample.js';
import * as m030 from './migrations/030-staff-sign-in.js';
import * as m031 from './migrations/031-passkeys-sso.js';
import * as m032 from './migrations/032-document-reading.js';
import * as m033 from './migrations/033-urgency-waiting.js';
import * as m034 from './migrations/034-urgent-by-travel-moment.js';
import * as m035 from './migrations/035-search-pending-list.js';
import * as m036 from './migrations/036-due-future-marked.js';
import * as m037 from './migrations/037-search-text-column.js';
import * as m038 from './migrations/038-search-quads.js';
import * as m039 from './migrations/039-chargeback-names.js';
import * as m040 from './migrations/040-search-quads-plpgsql.js';

/**
 * A migration, and the tables it leaves to be vacuumed once it has committed (`vacuumAfter`): a migration that
 * rewrites a table leaves none of its pages marked all-visible, so every index-only walk of a queue reads the table
 * for each entry until a VACUUM (a deep page several times slower), and VACUUM cannot run inside the migration's
 * transaction.
 */
type Step = Migration & { readonly vacuumAfter?: readonly string[] };

const migrations: Record<string, Step> = {
  '001-initial-schema': m001,
  '002-order-counters': m002,
  '003-reference-data': m003,
  '004-revoked-sessions': m004,
  '005-mail-outbox': m005,
  '006-invoices': m006,
  '007-administration': m007,
  '008-portal-menu-links': m008,
  '009-new-queue-walk': m009,
  '010-search-statistics': m010,
  '011-new-queue-search': m011,
  '012-search-by-week': m012,
  '013-completed-queue': m013,
  '014-intake': m014,
  '015-counter-stripes': m015,
  '016-payments': m016,
  '017-intake-payment-answer': m017,
  '018-mail-idempotency': m018,
  '019-new-queue-trigrams': m019,
  '020-limit-counters': m020,
  '021-personal-data-encryption': m021,
  '022-access-records': m022,
  '023-retention': m023,
  '024-audit-without-addresses': m024,
  '025-search-whole-values': m025,
  '026-mail-claim-boot': m026,
  '027-landing-site-branding': m027,
  '028-future-name-search': m028,
  '029-search-sample': m029,
  '030-staff-sign-in': m030,
  '031-passkeys-sso': m031,
  '032-document-reading': m032,
  '033-urgency-waiting': m033,
  '034-urgent-by-travel-moment': m034,
  '035-search-pending-list': m035,
  '036-due-future-marked': m036,
  '037-search-text-column': m037,
  '038-search-quads': m038,
  '039-chargeback-names': m039,
  '040-search-quads-plpgsql': m040,
};

/** The newest migration this code knows (GET /api/ready names it). */
export const LATEST_MIGRATION = Object.keys(migrations).sort().at(-1)!;

/**
 * The migrations this code knows that the database has not applied (readiness: a server must not take traffic on an
 * older schema). Reads kysely_migration only; a database without it has applied none.
 */
export async function pendingMigrations(db: Kysely<unknown>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const known = await migrator.getMigrations();
  return known.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/** Every migration this code knows that the database has not applied, then what they leave to vacuum. */
export const migrateToLatest = (db: Kysely<unknown>) => migrate(db, (migrator) => migrator.migrateToLatest());

/** Up to `name` and no further: for a test of a migration on data made before it. */
export const migrateTo = (db: Kysely<unknown>, name: string) => migrate(db, (migrator) => migrator.migrateTo(name));

async function migrate(db: Kysely<unknown>, run: (migrator: Migrator) => Promise<MigrationResultSet>): Promise<void> {
  const { error, results } = await run(new Migrator({ db, provider: { getMigrations: async () => migrations } }));
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
  const applied = (results ?? []).filter((r) => r.status === 'Success');
  const tables = new Set(applied.flatMap((r) => migrations[r.migrationName]?.vacuumAfter ?? []));
  for (const table of tables) await sql`VACUUM (ANALYZE) ${sql.table(table)}`.execute(db);
}
