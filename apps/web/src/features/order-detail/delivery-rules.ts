// Upload Document, Email History and the defence packs (spec §2, §5, §7, §9). The upload's field names, messages and
// accepted files are typed against the contracts' constants (their TypeBox module stays out of the browser
// bundle), so a change there fails the build here.
import type {
  MailProvider,
  OrderDetails,
  UPLOAD_FIELDS as CONTRACT_UPLOAD_FIELDS,
  UPLOAD_MESSAGES as CONTRACT_UPLOAD_MESSAGES,
} from '@eta/contracts';
import { ACCEPTED_DOCUMENT_TYPES, MAIL_PROVIDERS } from '@eta/contracts/domain';

type MailEntry = OrderDetails['mailHistory'][number];

/** Spec §7: the multipart field names of upload-visa-document. */
export const UPLOAD_FIELDS: typeof CONTRACT_UPLOAD_FIELDS = {
  orderId: 'orderId',
  email: 'email',
  file: 'uploadVisaDoc',
  provider: 'mailServiceProvider',
  sendAnywayReason: 'sendAnywayReason',
  confirmEmailChange: 'confirmEmailChange',
};

/** The shortest reason the server accepts for sending a document it could not match (contracts). */
export const MIN_SEND_ANYWAY_REASON = 10;

/** Spec §5 "Upload document". */
export const UPLOAD_MESSAGES: Pick<typeof CONTRACT_UPLOAD_MESSAGES, 'emailRequired' | 'fileRequired'> = {
  emailRequired: 'Please enter your email',
  fileRequired: 'File is required',
};

/** What the server accepts (judged there by content): a PDF or an image. */
export const ACCEPTED_FILES = Object.keys(ACCEPTED_DOCUMENT_TYPES).join(',');

const isProvider = (value: string | undefined): value is MailProvider =>
  (MAIL_PROVIDERS as readonly (string | undefined)[]).includes(value);

/** The provider the latest document's mail went with, else the first of spec §9 (AWS). */
export function defaultProvider(order: OrderDetails): MailProvider {
  const latest = order.uploadDoc[0]?.mail_service_provider;
  return isProvider(latest) ? latest : MAIL_PROVIDERS[0];
}

/** How often the page reloads while a mail is about to go out. */
export const MAIL_POLL_MS = 4000;
const DUE_SOON_MS = 60_000;
/** The outbox's lease: a due mail still queued after it has no worker sending it, and watching will not help. */
const OVERDUE_MS = 2 * 60_000;

/**
 * Whether a queued mail is due now or within a minute: the page then reloads every few seconds until it has gone
 * (the worker sends it within seconds). A mail waiting for a later retry, or long overdue, keeps nobody polling.
 */
export function hasMailDueSoon(mails: readonly MailEntry[], now = Date.now()): boolean {
  return mails.some((mail) => {
    if (mail.state !== 'queued') return false;
    const due = Date.parse(mail.next_attempt_at ?? mail.create_ts);
    return !Number.isNaN(due) && due - now < DUE_SOON_MS && now - due < OVERDUE_MS;
  });
}

/** A file size as people read it. */
export const formatSize = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
