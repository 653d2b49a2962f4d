// One interface for every mail provider: the outbox hands a finished mail to the transport its row names and
// learns the provider's message id, or why it failed and whether trying again could help.
import type { MailProvider } from '@eta/contracts';

export interface OutgoingMail {
  /** The outbox row's own key: every attempt of one mail carries the same, as a header and a provider tag. */
  key: string;
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

export interface MailTransport {
  readonly provider: MailProvider;
  /**
   * Resolves once the provider accepted the message, with its id for it (null if it gave none: the mail went,
   * so it is not sent twice); rejects with a MailSendError.
   */
  send(mail: OutgoingMail): Promise<{ messageId: string | null }>;
  /**
   * Asks the provider whether it already has the mail with this key (an attempt whose outcome was never recorded).
   * Absent when the provider offers no way to ask: such a mail is sent again (at-least-once).
   */
  findAccepted?(key: string): Promise<EarlierAttempt>;
  /** Releases the client's connections when the app closes. */
  close?(): void;
}

/** The header every attempt carries its mail's key in, so copies of one mail are recognisable as one. */
export const MAIL_KEY_HEADER = 'X-Eta-Mail-Key';
/** The provider-side tag (SendGrid custom_args, SES EmailTags) with the same key, for finding the mail again. */
export const MAIL_KEY_TAG = 'eta_mail_key';

/**
 * What a provider says of an earlier attempt: it has the mail (with its id), it has not, or it cannot tell now
 * (throttled, down: ask again later) or ever (no access to its history: send again).
 */
export type EarlierAttempt =
  | { state: 'accepted'; messageId: string | null }
  | { state: 'absent' }
  | { state: 'unknown'; reason: string; askAgain: boolean };

/** Longest error text kept on a mail row (Email History shows it). */
const MAX_ERROR_LENGTH = 500;

export class MailSendError extends Error {
  constructor(
    message: string,
    /** True when the provider refused this mail for good (a bad request): retrying cannot help. */
    readonly permanent: boolean,
  ) {
    super(message.length > MAX_ERROR_LENGTH ? `${message.slice(0, MAX_ERROR_LENGTH - 1)}…` : message);
    this.name = 'MailSendError';
  }
}

/**
 * A 4xx answer is the provider refusing this mail (address, sender, content) and is final, except timeouts
 * (408) and throttling (429). 5xx answers and network failures are worth another attempt.
 */
export const isPermanentStatus = (status: number | undefined): boolean =>
  status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;

/** The transports this process can use, by provider; a provider without configuration has none. */
export type MailTransports = Partial<Record<MailProvider, MailTransport>>;
