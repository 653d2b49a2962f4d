// The reports: Country Order Details and Processed By over a full year.

/** The reports read a full year (issue 10): the year before the demo data's reference day, 2026-11-20. */
const REPORT_YEAR = { fromDate: '2025-11-21', toDate: '2026-11-20' };

/**
 * A database seeded before migration 007 has no "processed by" on its delivered orders: give them the one the
 * seeder gives now (the holder, else a worker), once, so the Processed By report reads a realistic year.
 */
export async function ensureProcessedBy(pool) {
  const { rows } = await pool.query('SELECT count(*)::int AS n FROM processed_report_counts');
  if (rows[0].n > 0) return;
  console.log('Recording "processed by" on the delivered orders (once)…');
  await pool.query(
    `UPDATE orders o SET processed_by = coalesce(o.assign_to, s.ids[1 + o.id % array_length(s.ids, 1)]),
                         processed_at = o.updated_at
       FROM (SELECT array_agg(id ORDER BY id) AS ids FROM staff WHERE type IN ('Team', 'Manager') AND active) s
      WHERE o.payment_status = 'Success' AND o.processed_by IS NULL
        AND o.process_status IN ('Completed', 'Customer Called', 'ChargeBack')`,
  );
  await pool.query('VACUUM ANALYZE orders, processed_report_counts');
}

export function reportCases() {
  return [
    {
      name: 'country report, a full year',
      kind: 'report',
      method: 'POST',
      path: '/api/admin/get-country-order-count',
      body: REPORT_YEAR,
      call: (s) => s.reports.countryReport(REPORT_YEAR),
    },
    {
      name: 'processed-by report, a full year',
      kind: 'report',
      method: 'POST',
      path: '/api/admin/get-processed-by-count',
      body: REPORT_YEAR,
      call: (s) => s.reports.processedReport(REPORT_YEAR),
    },
  ];
}
