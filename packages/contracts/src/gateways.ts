// Spec §2 "Change Gateway", §3 "Gateway", §5 and §7: the payment gateways and the one active among them.
// Their secrets never leave the server.
import { Type, type Static } from 'typebox';
import { GATEWAY_REQUIRED } from './domain.js';
import { Envelope } from './envelope.js';

export const Gateway = Type.Object({
  id: Type.Integer(),
  gateway_name: Type.String(),
  /** Spec §3: '1' means active. */
  is_active: Type.Union([Type.Literal('1'), Type.Literal('0')]),
  /**
   * Whether this server holds the gateway's keys (never the keys themselves). Without them the desk cannot verify
   * the gateway's payments (orders paid through it are taken on the landing site's word), refund them or send dispute
   * evidence through it.
   */
  configured: Type.Boolean(),
});
export type Gateway = Static<typeof Gateway>;
export const GatewayListResponse = Envelope(Type.Array(Gateway));

export const GatewaySettingBody = Type.Object({
  gatewayId: Type.Integer({ minimum: 1, maximum: 2_147_483_647, errorMessage: GATEWAY_REQUIRED }),
  /**
   * The person was told the gateway is not configured and activates it anyway. Without it such a switch is refused
   * (409 GATEWAY_NOT_CONFIGURED), so no client makes it unwarned.
   */
  activateNotConfigured: Type.Optional(Type.Boolean()),
});
export type GatewaySettingBody = Static<typeof GatewaySettingBody>;
export const GatewaySettingResponse = Envelope(Gateway);

/** The public read for the landing sites: the active gateway's name only. */
export const ActiveGatewayResponse = Envelope(Type.Object({ gateway_name: Type.String() }));
