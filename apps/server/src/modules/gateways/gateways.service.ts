// Gateway Setting (spec §2 "Change Gateway", §3, §7): exactly one active payment gateway, switched in one
// transaction that locks every gateway row first, so two switches at the same moment end with one active. A gateway
// whose keys this server lacks is activated only when the request says the person was warned: the switch is the
// business's call (the keys may be on their way), but never an unwarned one.
import type { Kysely } from 'kysely';
import type { Gateway } from '@eta/contracts';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { writeAudit, type Actor } from '../audit/audit.repository.js';
import type { PaymentGateways } from '../payments/gateways.js';
import {
  findActiveGateway,
  listGateways,
  lockGateways,
  setActiveGateway,
  type GatewayRow,
} from './gateways.repository.js';

/** What an active gateway without keys means for the desk, in the words of the messages below. */
const withoutKeys = (name: string) =>
  `${name} is not configured on this server: until its keys are set, payments made through it are not verified, and refunds and dispute evidence cannot go through it.`;

export class GatewaysService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly payments: PaymentGateways,
  ) {}

  private toGateway(g: GatewayRow): Gateway {
    return {
      id: g.id,
      gateway_name: g.gateway_name,
      is_active: g.is_active ? '1' : '0',
      configured: this.payments.get(g.gateway_name)?.configured ?? false,
    };
  }

  async list(): Promise<Gateway[]> {
    return (await listGateways(this.db)).map((g) => this.toGateway(g));
  }

  /**
   * Makes the gateway the active one. One not configured here is refused unless `activateNotConfigured` says the
   * person saw the warning; the answer then repeats what it means.
   */
  async activate(
    actor: Actor,
    gatewayId: number,
    activateNotConfigured = false,
  ): Promise<{ gateway: Gateway; message: string }> {
    return this.db.transaction().execute(async (trx) => {
      const gateways = await lockGateways(trx);
      const target = gateways.find((g) => g.id === gatewayId);
      if (!target) throw new AppError('NOT_FOUND', 'That gateway does not exist.');
      const gateway = this.toGateway({ ...target, is_active: true });
      const warning = gateway.configured ? '' : ` ${withoutKeys(target.gateway_name)}`;
      if (target.is_active) {
        return { gateway, message: `${target.gateway_name} is already the active gateway.${warning}` };
      }
      if (!gateway.configured && !activateNotConfigured) {
        throw new AppError(
          'GATEWAY_NOT_CONFIGURED',
          `${withoutKeys(target.gateway_name)} It was not made the active gateway; confirm to activate it anyway.`,
        );
      }
      const previous = gateways.find((g) => g.is_active);
      await setActiveGateway(trx, target.id);
      await writeAudit(trx, actor, [
        {
          action: 'gateway.activate',
          target: `gateway:${target.id}`,
          before: { active: previous?.gateway_name ?? null },
          after: { active: target.gateway_name, configured: gateway.configured },
        },
      ]);
      return { gateway, message: `${target.gateway_name} is now the active gateway.${warning}` };
    });
  }

  /** The landing sites' public read: which gateway takes payments now. */
  async active(): Promise<{ gateway_name: string }> {
    const row = await findActiveGateway(this.db);
    if (!row) throw new AppError('NOT_FOUND', 'No payment gateway is active.');
    return row;
  }
}
