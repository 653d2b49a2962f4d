// Gateway Setting calls (spec §7 "Gateway and team"; issue 21: each gateway's health and the webhooks the desk
// could not match, for Admins).
import type { ApiEnvelope, Gateway, GatewayHealth, UnmatchedEvent } from '@eta/contracts';
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
    activateGateway: build.mutation<string, number>({
      query: (gatewayId) => ({ url: 'admin/payment-gateway-setting', method: 'POST', body: { gatewayId } }),
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
