// Gateway Setting (spec §2 "Change Gateway", §3, §7): exactly one active payment gateway, switched in one
// transaction that locks every gateway row first, so two switches at the same moment end with one active.
import type { Kysely } from 'kysely';
import type { Gateway } from '@eta/contracts';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { writeAudit, type Actor } from '../audit/audit.repository.js';
import {
  findActiveGateway,
  listGateways,
  lockGateways,
  setActiveGateway,
  type GatewayRow,
} from './gateways.repository.js';

const toGateway = (g: GatewayRow): Gateway => ({
  id: g.id,
  gateway_name: g.gateway_name,
  is_active: g.is_active ? '1' : '0',
});

export class GatewaysService {
  constructor(private readonly db: Kysely<DB>) {}

  async list(): Promise<Gateway[]> {
    return (await listGateways(this.db)).map(toGateway);
  }

  async activate(actor: Actor, gatewayId: number): Promise<{ gateway: Gateway; message: string }> {
    return this.db.transaction().execute(async (trx) => {
      const gateways = await lockGateways(trx);
      const target = gateways.find((g) => g.id === gatewayId);
      if (!target) throw new AppError('NOT_FOUND', 'That gateway does not exist.');
      if (target.is_active) {
        return { gateway: toGateway(target), message: `${target.gateway_name} is already the active gateway.` };
      }
      const previous = gateways.find((g) => g.is_active);
      await setActiveGateway(trx, target.id);
      await writeAudit(trx, actor, [
        {
          action: 'gateway.activate',
          target: `gateway:${target.id}`,
          before: { active: previous?.gateway_name ?? null },
          after: { active: target.gateway_name },
        },
      ]);
      return {
        gateway: toGateway({ ...target, is_active: true }),
        message: `${target.gateway_name} is now the active gateway.`,
      };
    });
  }

  /** The landing sites' public read: which gateway takes payments now. */
  async active(): Promise<{ gateway_name: string }> {
    const row = await findActiveGateway(this.db);
    if (!row) throw new AppError('NOT_FOUND', 'No payment gateway is active.');
    return row;
  }
}
