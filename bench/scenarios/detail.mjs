// Order detail: one busy order (the sample, halfway through the paid orders) read in one statement.

/** The detail case reads an order with at least this many remarks and downloads (issue: 20 and 10). */
const DETAIL_REMARKS = 20;
const DETAIL_DOWNLOADS = 10;

/** Gives the sample order its share of remarks and downloads, so the detail case reads a busy order. */
export async function ensureBusyOrder(pool, orderId) {
  const { rows } = await pool.query(
    `SELECT o.id, (SELECT count(*) FROM remarks WHERE order_id = o.id) AS remarks,
            (SELECT count(*) FROM downloads WHERE order_id = o.id) AS downloads
     FROM orders o WHERE o.order_id = $1`,
    [orderId],
  );
  const { id, remarks, downloads } = rows[0];
  await pool.query(
    `INSERT INTO remarks (order_id, remark_name, remark, created_at)
     SELECT $1, 'Bench Admin', 'Customer called about the status of the application. ' || g, now() - g * interval '1 hour'
     FROM generate_series(1, $2::int) g`,
    [id, Math.max(0, DETAIL_REMARKS - Number(remarks))],
  );
  await pool.query(
    `INSERT INTO downloads (order_id, ip, browser, os, device, device_type, location, timezone, created_at)
     SELECT $1, '203.0.113.' || g, 'Chrome 131', 'Windows 11', 'Desktop', 'desktop', 'Toronto, CA', 'America/Toronto',
            now() - g * interval '1 day'
     FROM generate_series(1, $2::int) g`,
    [id, Math.max(0, DETAIL_DOWNLOADS - Number(downloads))],
  );
}

export function detailCases({ sample }) {
  return [
    {
      name: `order detail (${DETAIL_REMARKS} remarks, ${DETAIL_DOWNLOADS} downloads)`,
      kind: 'detail',
      path: `/api/admin/get-orders-details/${sample.order_id}`,
      call: (s) => s.detail.details(sample.order_id),
    },
  ];
}
