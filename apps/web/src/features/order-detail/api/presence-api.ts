// The detail page's presence on the live desk (issue 23): "viewing" or "editing remarks", repeated while the page
// is open, and "left" when it closes. A background call: a failure is shown to nobody and never ends the session
// (the next beat tries again; the server forgets a presence that stops beating).
import type { PresenceBody } from '@eta/contracts';
import { api } from '../../../lib/api';

export interface PresenceArgs {
  orderId: string;
  activity: PresenceBody['activity'];
}

const presenceApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendPresence: build.mutation<unknown, PresenceArgs>({
      query: ({ orderId, activity }) => ({
        url: `admin/orders/${encodeURIComponent(orderId)}/presence`,
        method: 'PUT',
        body: { activity } satisfies PresenceBody,
        silent: true,
        endsSessionOn401: false,
      }),
    }),
  }),
});

export const { sendPresence } = presenceApi.endpoints;
