// How the console words and styles what happened to a mail a call asked for (issue 22). The server's answer
// says it in `delivery`; a mail that was not sent is never shown as a success, whatever else the call did.
import type { MailDelivery, MailNotSentReason } from '@eta/contracts';

export type OutcomeToastType = 'success' | 'warning';

/** Queued (the outbox sends it within seconds) and sent are successes; not sent is a warning. */
export const deliveryToastType = (delivery: MailDelivery): OutcomeToastType =>
  delivery.state === 'not_sent' ? 'warning' : 'success';

/** The delivery in an answer's data, when the call asked for a mail. */
export function deliveryOf(data: unknown): MailDelivery | undefined {
  if (typeof data !== 'object' || data === null || !('delivery' in data)) return undefined;
  const delivery = (data as { delivery: unknown }).delivery;
  return typeof delivery === 'object' && delivery !== null && 'state' in delivery
    ? (delivery as MailDelivery)
    : undefined;
}

/** The toast an answer calls for: its mail's outcome when it asked for one, else success. */
export const answerToastType = (data: unknown): OutcomeToastType => {
  const delivery = deliveryOf(data);
  return delivery ? deliveryToastType(delivery) : 'success';
};

const NOT_SENT_BECAUSE: Record<MailNotSentReason, string> = {
  no_provider: 'no mail provider is configured on this server',
  failed: 'the mail provider did not take it',
};

/** Why a mail was not sent, in words. */
export const notSentReason = (delivery: MailDelivery): string => NOT_SENT_BECAUSE[delivery.reason ?? 'failed'];
