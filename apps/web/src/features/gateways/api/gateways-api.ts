// Gateway Setting calls (spec §7 "Gateway and team").
import type { ApiEnvelope, Gateway } from '@eta/contracts';
import { api } from '../../../lib/api';

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
  }),
});

export const { useGatewaysQuery, useActivateGatewayMutation } = gatewaysApi;
