// Gateway Setting calls (spec §7 "Gateway and team"; issue 21: each gateway's health and the webhooks the desk
// could not match, for Admins).
import type { ApiEnvelope, Gateway, GatewayHealth, GatewaySettingBody, UnmatchedEvent } from '@eta/contracts';
import { api } from '../../../lib/api';

export interface UnmatchedEventsPage {
  rows: UnmatchedEvent[];
  total: number;
}

export const gatewaysApi = api.injectEndpoints({
  endpoints: (build) => ({
    gateways: build.query<Gateway[], void>({
      query: () => ({ url: 'admin/payment-gateways' }),
      transformResponse: (body: ApiEnvelope<Gateway[]>) => body.data!,
      providesTags: ['Gateways'],
    }),
    // A gateway without keys is refused (409 GATEWAY_NOT_CONFIGURED) unless the body says the person was warned; the
    // page asks first, so the refusal (a list older than the server's keys) is its to handle, not a toast.
    activateGateway: build.mutation<string, GatewaySettingBody>({
      query: (body) => ({
        url: 'admin/payment-gateway-setting',
        method: 'POST',
        body,
        silent: (error) => error.code === 'GATEWAY_NOT_CONFIGURED',
      }),
      transformResponse: (body: ApiEnvelope<Gateway>) => body.message,
      invalidatesTags: ['Gateways'],
    }),
    gatewayHealth: build.query<GatewayHealth[], void>({
      query: () => ({ url: 'admin/payment-gateways/health' }),
      transformResponse: (body: ApiEnvelope<GatewayHealth[]>) => body.data!,
    }),
    unmatchedEvents: build.query<UnmatchedEventsPage, { page: number; limit: number }>({
      query: (params) => ({ url: 'admin/gateway-events/unmatched', params: { ...params } }),
      transformResponse: (body: ApiEnvelope<UnmatchedEventsPage>) => body.data!,
    }),
  }),
});

export const { useGatewaysQuery, useActivateGatewayMutation, useGatewayHealthQuery, useUnmatchedEventsQuery } =
  gatewaysApi;
