// Test fixtures: orders with just the fields a test cares about, the rest realistic defaults.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB, NewOrder } from '../../src/db/schema.js';

let next = 100_000_000;

export const nextOrderId = () => `ETA-${String((next += 1)).padStart(9, '0')}`;

/** A paid New Standard order with realistic fields, `overrides` applied; not yet inserted. */
export function orderValues(overrides: Partial<NewOrder> = {}): NewOrder {
  const orderId = overrides.order_id ?? nextOrderId();
  return {
    order_id: orderId,
    email: `${orderId.toLowerCase()}@mail.test`,
    landing_site: 'default',
    payment_status: 'Success',
    process_status: 'New',
    processing_type: 'Standard',
    passport_first_name: 'Ada',
    passport_surname: 'Lovelace',
    // In clear, as an order from before encryption: the approval helpers (uploads.ts) name this traveller.
    passport_number: 'LV1234567',
    telephone_number: '5550100',
    country_code: '44',
    citizen_country: 'United Kingdom',
    created_at: new Date(Date.UTC(2026, 0, 1) + (next % 100_000) * 60_000),
    ...overrides,
  };
}

export async function insertOrder(db: Kysely<DB>, overrides: Partial<NewOrder> = {}): Promise<string> {
  const values = orderValues(overrides);
  await db.insertInto('orders').values(values).execute();
  return values.order_id;
}

/** 'YYYY-MM-DD' n days from today (UTC). */
export const daysFromToday = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

/** Each reference landing site on a portal host of its own, as an operator would set them (mail link tests). */
export async function givePortalHosts(db: Kysely<DB>): Promise<void> {
  for (const [key, url] of [
    ['default', 'https://www.canada-eta-online.example'],
    ['eta-express', 'https://www.eta-express.example'],
    ['canada-travel-auth', 'https://www.canada-travel-auth.example'],
  ] as const) {
    await db.updateTable('landing_sites').set({ portal_url: url }).where('key', '=', key).execute();
  }
}

/**
 * A bulk call's body as the console sends it: with the version of each order as its list showed it (read now), unless
 * the body names versions of its own. Ids that do not exist get version 1.
 */
export async function withVersions<T extends object>(db: Kysely<DB>, body: T): Promise<T> {
  const ids = (body as { orderId?: unknown }).orderId;
  if ('versions' in body || !Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) return body;
  const wanted = (ids as string[]).map((id) => id.trim().toUpperCase());
  const rows = wanted.length
    ? await db.selectFrom('orders').select(['order_id', 'version']).where('order_id', 'in', wanted).execute()
    : [];
  const seen = new Map(rows.map((r) => [r.order_id, r.version]));
  return { ...body, versions: Object.fromEntries((ids as string[]).map((id, i) => [id, seen.get(wanted[i]!) ?? 1])) };
}

/** A bulk call (PUT) as the console makes it: signed in, and with the versions its list showed (withVersions). */
export async function putWithVersions(
  t: { app: FastifyInstance; database: { db: Kysely<DB> } },
  url: string,
  token: string,
  payload: object,
) {
  return t.app.inject({
    method: 'PUT',
    url,
    headers: { authorization: token },
    payload: await withVersions(t.database.db, payload),
  });
}
