// What a call that asked for a mail tells its caller about it (issue 22): the outbox row's state in words a
// client branches on. A mail is never "sent" when the call answers (the worker sends it after the commit), so a
// call says queued, or not_sent with the reason when the row was kept as failed from the start.
import { NO_PROVIDER_ERROR, type MailDelivery, type MailState } from '@eta/contracts';

export function mailDelivery(state: MailState, lastError?: string | null): MailDelivery {
  if (state === 'sent') return { state: 'sent' };
  if (state === 'queued') return { state: 'queued' };
  return { state: 'not_sent', reason: lastError === NO_PROVIDER_ERROR ? 'no_provider' : 'failed' };
}
