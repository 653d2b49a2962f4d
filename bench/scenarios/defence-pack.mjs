// The defence pack: pack 1 of a Completed order with a full dispute file, built as a PDF at 4 connections; and a
// queue's first page read while packs are being built, against the same page read alone (issue 22: the pack's
// work is off the event loop, so it must not slow other calls).
import { crc32, deflateSync } from 'node:zlib';
import { DURATION, PAGE_SIZE, TARGETS, benchDocumentStore, httpOnlyRow, load, serverModule } from '../harness.mjs';

const BENCH_DOCUMENT_NAME = 'eta-approval.pdf';

/** The defence-pack case builds the pack of an order with this many mails, downloads and document pages (issue 8). */
const PACK_MAILS = 20;
const PACK_DOWNLOADS = 50;
const PACK_DOCUMENT_PAGES = 10;
const PACK_CONNECTIONS = 4;

/**
 * Gives a Completed order the dispute file of the defence-pack case: mails, downloads, a signature and a
 * multi-page approved PDF in the server's document store (bench/.data), like an upload would leave them.
 */
export async function ensureDisputedOrder(pool) {
  const { PdfBuilder } = await serverModule('lib/pdf/pdf-builder.js');
  const store = await benchDocumentStore();
  const { rows } = await pool.query(
    `SELECT o.id, o.order_id, o.email, o.customer_sign,
            (SELECT count(*) FROM mails WHERE order_id = o.id) AS mails,
            (SELECT count(*) FROM downloads WHERE order_id = o.id) AS downloads,
            (SELECT storage_key FROM documents WHERE order_id = o.id ORDER BY created_at DESC, id DESC LIMIT 1) AS document,
            (SELECT original_name FROM documents WHERE order_id = o.id ORDER BY created_at DESC, id DESC LIMIT 1)
              AS document_name
     FROM orders o WHERE o.process_status = 'Completed' AND o.payment_status = 'Success'
     ORDER BY o.id LIMIT 1 OFFSET 1000`,
  );
  const order = rows[0];
  await pool.query(
    `INSERT INTO mails (order_id, kind, to_address, subject, html, text, provider, state, provider_message_id,
                        attempts, created_at, sent_at)
     SELECT $1, CASE WHEN g = 1 THEN 'approval' ELSE 'resend' END, $2,
            'Your Canada eTA is approved - order ' || $3, '<p>Approved</p>', 'Approved',
            CASE WHEN g % 2 = 0 THEN 'AWS' ELSE 'Sendgrid' END, 'sent',
            '0100019a7c2b4e11-' || md5(g::text), 1, now() - g * interval '1 day', now() - g * interval '1 day'
     FROM generate_series(1, $4::int) g`,
    [order.id, order.email, order.order_id, Math.max(0, PACK_MAILS - Number(order.mails))],
  );
  await pool.query(
    `INSERT INTO downloads (order_id, ip, browser, os, device, device_type, location, timezone, created_at)
     SELECT $1, '198.51.100.' || g, 'Chrome 131', 'Windows 11', 'Desktop', 'desktop', 'Toronto, Ontario, CA',
            'America/Toronto', now() - g * interval '6 hours'
     FROM generate_series(1, $2::int) g`,
    [order.id, Math.max(0, PACK_DOWNLOADS - Number(order.downloads))],
  );
  // The pack appends the order's latest document: it must be this case's own, not the one-page demo document every
  // Completed demo order has (runs 15-18 measured packs with that one by mistake, ~2x cheaper).
  if (order.document_name !== BENCH_DOCUMENT_NAME || !(await store.exists(order.document))) {
    const doc = new PdfBuilder({ title: 'Approved eTA', author: 'IRCC', subject: 'Electronic Travel Authorization' });
    for (let page = 1; page <= PACK_DOCUMENT_PAGES; page += 1) {
      if (page > 1) doc.newPage();
      doc.title(`Electronic Travel Authorization: page ${page} of ${PACK_DOCUMENT_PAGES}`, order.order_id);
      for (let p = 0; p < 12; p += 1) {
        doc.paragraph(
          'Your application for an Electronic Travel Authorization (eTA) to travel to Canada has been approved. ' +
            'The eTA is linked to the passport used in the application and is valid for five years.',
        );
      }
    }
    const stored = await store.put(await doc.toBytes(), { extension: 'pdf' });
    await pool.query(
      `INSERT INTO documents (order_id, storage_key, original_name, content_type, size_bytes, sha256)
       VALUES ($1, $2, $5, 'application/pdf', $3, $4)`,
      [order.id, stored.key, stored.size, stored.sha256, BENCH_DOCUMENT_NAME],
    );
  }
  if (!order.customer_sign || !(await store.exists(order.customer_sign))) {
    const stored = await store.put(signaturePng(), { extension: 'png' });
    await pool.query(`UPDATE orders SET customer_sign = $2, customer_date = created_at WHERE id = $1`, [
      order.id,
      stored.key,
    ]);
  }
  return order.order_id;
}

/** A 600 x 200 greyscale PNG with a scribble, the size of a signature drawn on a checkout page. */
function signaturePng(width = 600, height = 200) {
  const chunk = (type, data) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const rows = [];
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(width + 1, 255);
    row[0] = 0;
    for (let x = 0; x < width; x += 1) {
      if (Math.abs(height / 2 + (height / 3) * Math.sin((x / width) * Math.PI * 5) - y) <= 2) row[x + 1] = 20;
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const packRequest = (disputed) => ({
  method: 'POST',
  path: '/api/admin/get-defence-pack-pdf',
  body: { orderId: disputed, defencePackType: 1 },
});

/**
 * Completed Orders page 1 at 4 connections, alone and then while 4 connections build packs the whole time; the row
 * is the page beside the packs, held to the list target, with the page alone beside it for comparison.
 */
export async function measureListBesidePacks({ disputed }, token, floor) {
  const list = { path: `/api/admin/get-orders-list/completedOrder?page=1&limit=${PAGE_SIZE}&delay=1` };
  const name = `list completedOrder page 1 (${PACK_CONNECTIONS} connections) while packs are built at ${PACK_CONNECTIONS}`;
  await load(name, list, token, 2, PACK_CONNECTIONS);
  const alone = await load(name, list, token, DURATION, PACK_CONNECTIONS);
  await load('packs', packRequest(disputed), token, 2, PACK_CONNECTIONS);
  const [beside, packs] = await Promise.all([
    load(name, list, token, DURATION, PACK_CONNECTIONS),
    load('packs', packRequest(disputed), token, DURATION + 1, PACK_CONNECTIONS),
  ]);
  const row = httpOnlyRow(name, beside, floor, {
    connections: PACK_CONNECTIONS,
    targetP95: TARGETS.page1,
    alone: { p50: alone.p50, p95: alone.p95, rps: alone.rps },
    packs: { p50: packs.p50, p95: packs.p95, rps: packs.rps },
  });
  console.log(
    `${row.meets ? 'ok  ' : 'MISS'} ${name}  p50 ${row.p50}ms  p95 ${row.p95}ms  ${row.rps} req/s (alone: p95 ${alone.p95}ms, ${alone.rps} req/s; packs meanwhile p95 ${packs.p95}ms, ${packs.rps}/s)`,
  );
  return row;
}

export function defencePackCases({ disputed }) {
  return [
    {
      name: `defence pack 1 (${PACK_MAILS} mails, ${PACK_DOWNLOADS} downloads, ${PACK_DOCUMENT_PAGES}-page document) at ${PACK_CONNECTIONS} connections`,
      kind: 'defencePack',
      ...packRequest(disputed),
      connections: PACK_CONNECTIONS,
      // The pack's SQL is the one statement its details read too; the rest of its time is building the PDF.
      call: (s) => s.defencePack.details(disputed, 1),
    },
  ];
}
