// All SQL of the two reports. Both read the trigger-kept day counters of migration 007, never the orders:
// a year is at most ~365 × countries × 3 rows (or × staff), read through the counters' primary keys
// (day, …), so a full year at a million orders costs a few milliseconds instead of an aggregate over
// ~700,000 orders.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export interface ReportFilter {
  /** Inclusive UTC dates, 'YYYY-MM-DD'; null = open. */
  from: string | null;
  to: string | null;
  /** Lower-case text the country or name must contain; '' = all. */
  search: string;
}

export interface CountryCountRow {
  citizen_country: string;
  count: number;
  standard_count: number;
  priority_count: number;
  future_count: number;
}

/** Paid orders created in the range by citizen country (reads order_report_counts_pkey on day). */
export async function countByCountry(db: Kysely<DB>, f: ReportFilter): Promise<CountryCountRow[]> {
  const rows = await db
    .selectFrom('order_report_counts')
    .select([
      'citizen_country',
      sql<number>`sum(n)`.as('count'),
      sql<number>`coalesce(sum(n) FILTER (WHERE processing_type = 'Standard'), 0)`.as('standard_count'),
      sql<number>`coalesce(sum(n) FILTER (WHERE processing_type = 'Priority'), 0)`.as('priority_count'),
      sql<number>`coalesce(sum(n) FILTER (WHERE processing_type = 'Future'), 0)`.as('future_count'),
    ])
    .$if(f.from !== null, (qb) => qb.where('day', '>=', f.from!))
    .$if(f.to !== null, (qb) => qb.where('day', '<=', f.to!))
    .$if(f.search !== '', (qb) => qb.where(sql<boolean>`strpos(lower(citizen_country), ${f.search}) > 0`))
    .groupBy('citizen_country')
    .having(sql<boolean>`sum(n) > 0`)
    .orderBy(sql`sum(n)`, 'desc')
    .orderBy('citizen_country')
    .execute();
  return rows.map((r) => ({
    citizen_country: r.citizen_country,
    count: Number(r.count),
    standard_count: Number(r.standard_count),
    priority_count: Number(r.priority_count),
    future_count: Number(r.future_count),
  }));
}

export interface ProcessedCountRow {
  staff_id: number;
  processed_by: string;
  active: boolean;
  count: number;
}

/** Orders moved to Completed in the range, by who did it (reads processed_report_counts_pkey on day). */
export async function countByProcessor(db: Kysely<DB>, f: ReportFilter): Promise<ProcessedCountRow[]> {
  const rows = await db
    .selectFrom('processed_report_counts as p')
    .innerJoin('staff as s', 's.id', 'p.staff_id')
    .select(['s.id as staff_id', 's.name as processed_by', 's.active', sql<number>`sum(p.n)`.as('count')])
    .$if(f.from !== null, (qb) => qb.where('p.day', '>=', f.from!))
    .$if(f.to !== null, (qb) => qb.where('p.day', '<=', f.to!))
    .$if(f.search !== '', (qb) => qb.where(sql<boolean>`strpos(lower(s.name), ${f.search}) > 0`))
    .groupBy(['s.id', 's.name', 's.active'])
    .having(sql<boolean>`sum(p.n) > 0`)
    .orderBy(sql`sum(p.n)`, 'desc')
    .orderBy('s.name')
    .orderBy('s.id')
    .execute();
  return rows.map((r) => ({ ...r, count: Number(r.count) }));
}
