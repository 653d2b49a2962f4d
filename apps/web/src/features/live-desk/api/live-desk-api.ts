// The live desk's one call: a short-lived, single-use ticket to open the event stream with (EventSource cannot
// send the staff token). A background call: a failure is shown to nobody and never ends the session; the
// connection just tries again later.
import type { ApiEnvelope, EventsTicket } from '@eta/contracts';
import { api } from '../../../lib/api';

const liveDeskApi = api.injectEndpoints({
  endpoints: (build) => ({
    createEventsTicket: build.mutation<EventsTicket, void>({
      query: () => ({ url: 'admin/events/ticket', method: 'POST', silent: true, endsSessionOn401: false }),
      transformResponse: (body: ApiEnvelope<EventsTicket>) => body.data!,
    }),
  }),
});

export const { createEventsTicket } = liveDeskApi.endpoints;
