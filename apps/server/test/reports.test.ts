// Country Order Details and Processed By (spec §2, §3 "Reports", §7, §8; issue 10), checked against a data
// set made by hand: UTC date edges, the Standard / Priority / Future columns, unpaid orders left out, search,
// "processed by" recorded by every way an order reaches Completed, and CSV equal to the filtered rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CountryReportRow, ProcessedReportRow } from '@eta/contracts';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { insertOrder, withVersions } from './helpers/orders.js';
import { PDF, uploadRequest } from './helpers/uploads.js';

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['signIn']>>;
let team: Awaited<ReturnType<TestApp['signIn']>>;

const at = (iso: string) => new Date(iso);
const order = (created: string, country: string | null, type: 'Standard' | 'Priority' | 'Future', extra = {}) =>
  insertOrder(t.database.db, {
    created_at: at(created),
    citizen_country: country,
    processing_type: type,
    ...(type === 'Future' ? { processing_date: '2027-01-15' } : {}),
    ...extra,
  });

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn('Admin', 'Ada Admin');
  team = await t.signIn('Team', 'Tariq Team');
  // March 2026 (UTC), edges included.
  await order('2026-03-01T00:00:00.000Z', 'Canada', 'Standard');
  await order('2026-03-10T12:00:00.000Z', 'Canada', 'Priority');
  await order('2026-03-31T23:59:59.999Z', 'Canada', 'Future');
  await order('2026-03-15T08:00:00.000Z', 'India', 'Standard', { process_status: 'Completed' });
  await order('2026-03-16T08:00:00.000Z', 'India', 'Standard', { process_status: 'Deleted' });
  await order('2026-03-20T08:00:00.000Z', 'United Kingdom', 'Priority');
  await order('2026-03-21T08:00:00.000Z', null, 'Standard');
  // Outside March by a millisecond either side.
  await order('2026-02-28T23:59:59.999Z', 'Canada', 'Standard');
  await order('2026-04-01T00:00:00.000Z', 'Canada', 'Priority');
  // Not paid: never counted.
  await order('2026-03-05T08:00:00.000Z', 'Canada', 'Standard', { payment_status: 'Pending' });
  await order('2026-03-05T09:00:00.000Z', 'France', 'Standard', { payment_status: 'Failed' });
});
afterAll(() => t.close());

const post = (url: string, body: object, who = admin) =>
  t.app.inject({ method: 'POST', url, headers: { authorization: who.token }, payload: body });
const country = async (body: object) => {
  const res = await post('/api/admin/get-country-order-count', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ status: number; message: string; data: CountryReportRow[] }>();
};
const csv = async (url: string, query: string, who = admin) => {
  const res = await t.app.inject({ url: `${url}?${query}`, headers: { authorization: who.token } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(res.headers['cache-control']).toBe('no-store');
  return res;
};
const csvRows = (text: string) =>
  text
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean)
    .map((line) => line.split(','));

describe('get-country-order-count', () => {
  const march = { fromDate: '2026-03-01', toDate: '2026-03-31' };

  it('counts paid orders created in the range by citizen country, both UTC edges included', async () => {
    const body = await country(march);
    expect(body.status).toBe(1);
    expect(body.message).toBe('Orders by country, from 2026-03-01 to 2026-03-31: 4 countries.');
    expect(body.data).toEqual([
      { citizen_country: 'Canada', count: 3, standard_count: 1, priority_count: 1, future_count: 1 },
      { citizen_country: 'India', count: 2, standard_count: 2, priority_count: 0, future_count: 0 },
      { citizen_country: '', count: 1, standard_count: 1, priority_count: 0, future_count: 0 },
      { citizen_country: 'United Kingdom', count: 1, standard_count: 0, priority_count: 1, future_count: 0 },
    ]);
  });

  it('one-day ranges at each edge, open ranges, and all dates', async () => {
    expect((await country({ fromDate: '2026-03-31', toDate: '2026-03-31' })).data).toEqual([
      { citizen_country: 'Canada', count: 1, standard_count: 0, priority_count: 0, future_count: 1 },
    ]);
    expect((await country({ fromDate: '2026-02-28', toDate: '2026-02-28' })).data).toEqual([
      { citizen_country: 'Canada', count: 1, standard_count: 1, priority_count: 0, future_count: 0 },
    ]);
    expect((await country({ fromDate: '2026-04-01' })).data).toEqual([
      { citizen_country: 'Canada', count: 1, standard_count: 0, priority_count: 1, future_count: 0 },
    ]);
    const all = await country({});
    expect(all.message).toContain('all dates');
    expect(all.data.find((r) => r.citizen_country === 'Canada')).toEqual({
      citizen_country: 'Canada',
      count: 5,
      standard_count: 2,
      priority_count: 2,
      future_count: 1,
    });
    expect(all.data.map((r) => r.citizen_country)).not.toContain('France');
    expect((await country({ toDate: '2026-02-28' })).data.map((r) => r.count)).toEqual([1]);
  });

  it('searches the country text in any case', async () => {
    expect((await country({ ...march, search: 'dIa' })).data.map((r) => r.citizen_country)).toEqual(['India']);
    expect((await country({ ...march, search: 'zzz' })).data).toEqual([]);
  });

  it('follows a payment that succeeds later and leaves status moves alone', async () => {
    const id = await order('2026-03-09T10:00:00.000Z', 'Japan', 'Priority', { payment_status: 'Pending' });
    expect((await country({ ...march, search: 'japan' })).data).toEqual([]);
    await t.database.db.updateTable('orders').set({ payment_status: 'Success' }).where('order_id', '=', id).execute();
    await t.database.db.updateTable('orders').set({ process_status: 'Awaiting' }).where('order_id', '=', id).execute();
    expect((await country({ ...march, search: 'japan' })).data).toEqual([
      { citizen_country: 'Japan', count: 1, standard_count: 0, priority_count: 1, future_count: 0 },
    ]);
    await t.database.db.updateTable('orders').set({ payment_status: 'Failed' }).where('order_id', '=', id).execute();
    expect((await country({ ...march, search: 'japan' })).data).toEqual([]);
  });

  it('refuses impossible dates and a reversed range', async () => {
    const reversed = await post('/api/admin/get-country-order-count', { fromDate: '2026-04-01', toDate: '2026-03-01' });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json()).toMatchObject({ status: 0, message: 'From date must be on or before To date.' });
    const impossible = await post('/api/admin/get-country-order-count', { fromDate: '2026-02-30' });
    expect(impossible.json()).toMatchObject({ status: 0, message: 'From date is not a valid date.' });
    const shape = await post('/api/admin/get-country-order-count', { toDate: '31/03/2026' });
    expect(shape.json()).toMatchObject({ status: 0, message: 'To date must be a date written as YYYY-MM-DD.' });
  });

  it('the CSV holds exactly the filtered rows', async () => {
    const filtered = await country({ ...march, search: 'a' });
    const res = await csv('/api/admin/get-country-order-count/csv', 'fromDate=2026-03-01&toDate=2026-03-31&search=a');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="country-orders-2026-03-01-to-2026-03-31.csv"',
    );
    const [header, ...rows] = csvRows(res.body);
    expect(header).toEqual([
      'S. No',
      'State/Territory',
      'Order Count',
      'Standard Processing',
      'Priority Processing',
      'Future Order Processing',
    ]);
    expect(rows).toEqual(
      filtered.data.map((r, i) => [
        String(i + 1),
        r.citizen_country || 'Not given',
        String(r.count),
        String(r.standard_count),
        String(r.priority_count),
        String(r.future_count),
      ]),
    );
    expect(rows.map((r) => r[1])).toEqual(['Canada', 'India']);
  });

  it('is open to every role (spec §6 hides Country Order List from nobody)', async () => {
    const night = await t.signIn('Night Staff');
    expect((await post('/api/admin/get-country-order-count', march, night)).statusCode).toBe(200);
  });
});

describe('get-processed-by-count', () => {
  const today = new Date().toISOString().slice(0, 10);
  let uploader: Awaited<ReturnType<TestApp['signIn']>>;
  let mover: Awaited<ReturnType<TestApp['signIn']>>;

  beforeAll(async () => {
    uploader = await t.signIn('Team', 'Uma Uploader');
    mover = await t.signIn('Manager', 'Max Mover');
  });

  const processed = async (body: object) => {
    const res = await post('/api/admin/get-processed-by-count', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ status: number; message: string; data: ProcessedReportRow[] }>();
  };
  const processor = (orderId: string) =>
    t.database.db
      .selectFrom('orders')
      .select(['processed_by', 'processed_at'])
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow();

  it('records who moved each order to Completed: upload, Move-to button, bulk move', async () => {
    const uploaded = await insertOrder(t.database.db, { process_status: 'Pending' });
    const form = await uploadRequest(
      { orderId: uploaded, email: 'c@customer.test', mailServiceProvider: 'AWS', confirmEmailChange: 'true' },
      {
        name: 'eta.pdf',
        content: PDF,
      },
    );
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/admin/upload-visa-document',
      headers: { ...form.headers, authorization: uploader.token },
      payload: form.payload,
    });
    expect(up.statusCode, up.body).toBe(200);
    expect(await processor(uploaded)).toMatchObject({ processed_by: uploader.id, processed_at: expect.any(Date) });

    const moved = await insertOrder(t.database.db, { process_status: 'Awaiting' });
    const move = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/move-order-status',
      headers: { authorization: mover.token },
      payload: { orderId: moved, updatingStatus: 'Completed', version: 1 },
    });
    expect(move.statusCode, move.body).toBe(200);
    expect((await processor(moved)).processed_by).toBe(mover.id);

    const bulk = [
      await insertOrder(t.database.db, { process_status: 'Customer Called' }),
      await insertOrder(t.database.db, { process_status: 'AwaitingGovt' }),
    ];
    const change = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/change-order-status',
      headers: { authorization: team.token },
      payload: await withVersions(t.database.db, { orderId: bulk, updatingStatus: 'Completed' }),
    });
    expect(change.statusCode, change.body).toBe(200);
    for (const id of bulk) expect((await processor(id)).processed_by).toBe(team.id);

    // A second document for an order already Completed keeps the person who completed it.
    const form2 = await uploadRequest(
      { orderId: moved, email: 'c@customer.test', mailServiceProvider: 'AWS', confirmEmailChange: 'true' },
      {
        name: 'eta.pdf',
        content: PDF,
      },
    );
    await t.app.inject({
      method: 'POST',
      url: '/api/admin/upload-visa-document',
      headers: { ...form2.headers, authorization: uploader.token },
      payload: form2.payload,
    });
    expect((await processor(moved)).processed_by).toBe(mover.id);

    const report = await processed({ fromDate: today, toDate: today });
    expect(report.status).toBe(1);
    expect(report.data).toEqual([
      { staff_id: team.id, processed_by: 'Tariq Team', active: true, count: 2 },
      { staff_id: mover.id, processed_by: 'Max Mover', active: true, count: 1 },
      { staff_id: uploader.id, processed_by: 'Uma Uploader', active: true, count: 1 },
    ]);
  });

  it('counts by the UTC day of processing, edges included, and keeps a deleted member’s name', async () => {
    const gone = await t.signIn('Team', 'Gwen Gone');
    const stamp = (iso: string, by: number) =>
      insertOrder(t.database.db, { process_status: 'Completed', processed_by: by, processed_at: at(iso) });
    await stamp('2025-06-01T00:00:00.000Z', gone.id);
    await stamp('2025-06-30T23:59:59.999Z', gone.id);
    await stamp('2025-06-15T10:00:00.000Z', admin.id);
    await stamp('2025-05-31T23:59:59.999Z', gone.id);
    await stamp('2025-07-01T00:00:00.000Z', admin.id);
    const del = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/delete-team-member',
      headers: { authorization: admin.token },
      payload: { teamMemberId: gone.id },
    });
    expect(del.statusCode).toBe(200);
    const june = await processed({ fromDate: '2025-06-01', toDate: '2025-06-30' });
    expect(june.message).toBe('Orders processed, from 2025-06-01 to 2025-06-30: 2 staff members.');
    expect(june.data).toEqual([
      { staff_id: gone.id, processed_by: 'Gwen Gone', active: false, count: 2 },
      { staff_id: admin.id, processed_by: 'Ada Admin', active: true, count: 1 },
    ]);
    expect((await processed({ fromDate: '2025-06-01', toDate: '2025-06-30', search: 'GWEN' })).data).toHaveLength(1);

    const res = await csv('/api/admin/get-processed-by-count/csv', 'fromDate=2025-06-01&toDate=2025-06-30');
    expect(csvRows(res.body)).toEqual([
      ['S. No', 'Name', 'Order Count'],
      ['1', 'Gwen Gone', '2'],
      ['2', 'Ada Admin', '1'],
    ]);
  });

  it('is for Admin only, on the server', async () => {
    for (const who of [team, mover]) {
      expect((await post('/api/admin/get-processed-by-count', {}, who)).statusCode).toBe(403);
      const res = await t.app.inject({
        url: '/api/admin/get-processed-by-count/csv',
        headers: { authorization: who.token },
      });
      expect(res.statusCode).toBe(403);
    }
  });
});
