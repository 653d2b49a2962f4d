// All SQL of the payment gateways. Secrets stay in their column: no select here reads them.
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';

export interface GatewayRow {
  id: number;
  gateway_name: string;
  is_active: boolean;
}

export const listGateways = (db: Kysely<DB>): Promise<GatewayRow[]> =>
  db.selectFrom('gateways').select(['id', 'gateway_name', 'is_active']).orderBy('id').execute();

/** Locks every gateway row in id order: two switches at once run one after the other, never interleaved. */
export const lockGateways = (trx: Transaction<DB>): Promise<GatewayRow[]> =>
  trx.selectFrom('gateways').select(['id', 'gateway_name', 'is_active']).orderBy('id').forUpdate().execute();

/**
 * Two statements, not one: the partial unique index `gateways_one_active` (migration 001) is checked row by
 * row, so the old active row is cleared before the new one is set.
 */
export async function setActiveGateway(trx: Transaction<DB>, id: number): Promise<void> {
  await trx.updateTable('gateways').set({ is_active: false }).where('is_active', '=', true).execute();
  await trx.updateTable('gateways').set({ is_active: true }).where('id', '=', id).execute();
}

export const findActiveGateway = (db: Kysely<DB>) =>
  db.selectFrom('gateways').select('gateway_name').where('is_active', '=', true).executeTakeFirst();
