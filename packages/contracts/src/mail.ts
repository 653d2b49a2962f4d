// Delivery of the approved eTA (spec §2 "Order detail": Upload Document, Email History, View Email Content;
// §5 "Upload document"; §7 upload-visa-document, resend-mail): the upload, the mail outbox and what a mail says.
import { Type, type Static, type TSchema } from 'typebox';
import { MAIL_PROVIDERS } from './domain.js';
import { Envelope } from './envelope.js';

/** confirmation: the order-confirmation mail an intake order gets. */
export const MAIL_KINDS = ['approval', 'invoice', 'resend', 'refund', 'confirmation'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** queued: waiting in the outbox (or between retries); sent: accepted by the provider; failed: given up. */
export const MAIL_STATES = ['queued', 'sent', 'failed'] as const;
export type MailState = (typeof MAIL_STATES)[number];

/** What Email History says about a mail kept because no provider is configured on the server. */
export const NO_PROVIDER_ERROR = 'not sent: no provider configured';

/**
 * What happened to the mail a call asked for (issue 22), for clients to branch on rather than on the wording:
 * sent (the provider took it), queued (in the outbox, going out within seconds) or not_sent, with the reason.
 */
export const MAIL_DELIVERY_STATES = ['sent', 'queued', 'not_sent'] as const;
export type MailDeliveryState = (typeof MAIL_DELIVERY_STATES)[number];
/** no_provider: no mail provider is configured on the server; failed: the provider refused it or gave up. */
export const MAIL_NOT_SENT_REASONS = ['no_provider', 'failed'] as const;
export type MailNotSentReason = (typeof MAIL_NOT_SENT_REASONS)[number];
export const MailDelivery = Type.Object({
  state: Type.Enum(MAIL_DELIVERY_STATES),
  /** not_sent only. */
  reason: Type.Optional(Type.Enum(MAIL_NOT_SENT_REASONS)),
});
export type MailDelivery = Static<typeof MailDelivery>;

/** Spec §7: the multipart field names of POST /admin/upload-visa-document. */
export const UPLOAD_FIELDS = {
  orderId: 'orderId',
  email: 'email',
  file: 'uploadVisaDoc',
  provider: 'mailServiceProvider',
  // Ours (issue 35): a member sends a document the desk could not match, after looking, with a reason; and confirms
  // a mail to an address other than the order's.
  sendAnywayReason: 'sendAnywayReason',
  confirmEmailChange: 'confirmEmailChange',
} as const;

/** The shortest reason accepted for sending a document the desk could not match to the order. */
export const MIN_SEND_ANYWAY_REASON = 10;

/** Spec §5 "Upload document" messages, and ours where the spec shows none. */
export const UPLOAD_MESSAGES = {
  orderIdRequired: 'Order Id is required.',
  emailRequired: 'Please enter your email',
  emailInvalid: 'Please enter a valid email address.',
  fileRequired: 'File is required',
  fileEmpty: 'The file is empty. Please choose the approved document again.',
  providerRequired: 'Please choose the mail service provider: AWS or Sendgrid.',
} as const;

/**
 * One address, no display name, nothing that could start a second header line; spaces around it (a pasted
 * address) are allowed and trimmed by the server.
 */
export const EMAIL_PATTERN =
  '^\\s*[^\\s\\x00-\\x1f\\x7f@<>,;:"()\\[\\]\\\\]+@[^\\s\\x00-\\x1f\\x7f@<>,;:"()\\[\\]\\\\]+\\.[^\\s\\x00-\\x1f\\x7f@<>,;:"()\\[\\]\\\\]+\\s*$';
export const MAX_EMAIL_LENGTH = 254;

export const MailProviderSchema = Type.Enum(MAIL_PROVIDERS, { errorMessage: UPLOAD_MESSAGES.providerRequired });

export const RecipientEmail = Type.String({
  maxLength: MAX_EMAIL_LENGTH,
  allOf: [
    { minLength: 1, pattern: '\\S', errorMessage: UPLOAD_MESSAGES.emailRequired },
    { pattern: EMAIL_PATTERN, errorMessage: UPLOAD_MESSAGES.emailInvalid },
  ],
  errorMessage: { default: UPLOAD_MESSAGES.emailRequired, maxLength: UPLOAD_MESSAGES.emailInvalid },
});

/** Spec §7 `POST /admin/resend-mail`: the approval mail again, to the address in the editable box. */
export const ResendMailBody = Type.Object({
  orderId: Type.String({ minLength: 1, maxLength: 64, errorMessage: UPLOAD_MESSAGES.orderIdRequired }),
  email: RecipientEmail,
  mailServiceProvider: MailProviderSchema,
});
export type ResendMailBody = Static<typeof ResendMailBody>;

/** A mail as the outbox took it: it shows in Email History at once, in state queued (or failed, see above). */
export const QueuedMail = Type.Object({
  mailId: Type.Integer(),
  orderId: Type.String(),
  to: Type.String(),
  provider: Type.Enum(MAIL_PROVIDERS),
  state: Type.Enum(MAIL_STATES),
  last_error: Type.Optional(Type.String()),
});
export type QueuedMail = Static<typeof QueuedMail>;
/** Resend's answer: the mail as queued and what happened to it. */
export const ResendMailResult = Type.Object({ ...QueuedMail.properties, delivery: MailDelivery });
export type ResendMailResult = Static<typeof ResendMailResult>;
export const ResendMailResponse = Envelope(ResendMailResult);

/** The order's approved document (the latest upload). */
export const StoredDocumentInfo = Type.Object({
  id: Type.Integer(),
  /** The original file name, sanitized, with the extension of what the file really is. */
  file1: Type.String(),
  content_type: Type.String(),
  size_bytes: Type.Integer(),
  sha256: Type.String(),
  create_ts: Type.String(),
});
export type StoredDocumentInfo = Static<typeof StoredDocumentInfo>;

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** The approval's own facts, as the desk read them (issue 35). Dates are YYYY-MM-DD. */
export const ApprovalFacts = Type.Object({
  applicationNumber: Nullable(Type.String()),
  approvedOn: Nullable(Type.String()),
  expiresOn: Nullable(Type.String()),
});
export type ApprovalFacts = Static<typeof ApprovalFacts>;

/** A surname and passport number: what a document names, or the order's traveller. */
export const NamedTraveller = Type.Object({
  surname: Nullable(Type.String()),
  givenNames: Nullable(Type.String()),
  passportNumber: Nullable(Type.String()),
});

/** What the desk read in an uploaded approval, and what it made of it. */
export const DocumentReading = Type.Object({
  /** The PDF's own text, OCR of a scan or an image, or nothing readable. */
  method: Type.Union([Type.Literal('text'), Type.Literal('ocr'), Type.Literal('none')]),
  readable: Type.Boolean(),
  /** It names the order's passport number and surname. */
  matched: Type.Boolean(),
  passportFound: Type.Boolean(),
  surnameFound: Type.Boolean(),
  /** What it names by its own labels, where it has them. */
  named: NamedTraveller,
  facts: ApprovalFacts,
  /** The member's reason for sending it though it did not match or could not be read. */
  sentAnyway: Nullable(Type.String()),
});
export type DocumentReading = Static<typeof DocumentReading>;

/** A refused upload's facts (422 DOCUMENT_MISMATCH or DOCUMENT_NOT_READ): what was read, and the order's traveller. */
export const DocumentRefusal = Type.Object({ reading: DocumentReading, order: NamedTraveller });
export type DocumentRefusal = Static<typeof DocumentRefusal>;

export const UploadVisaDocumentResult = Type.Object({
  orderId: Type.String(),
  /** The order's new version and status (Completed). */
  version: Type.Integer(),
  process_status: Type.String(),
  document: StoredDocumentInfo,
  mail: QueuedMail,
  reading: DocumentReading,
});
export type UploadVisaDocumentResult = Static<typeof UploadVisaDocumentResult>;
/** Upload's answer: the order, its document, the approval mail and what happened to that mail. */
export const UploadVisaDocumentAnswer = Type.Object({ ...UploadVisaDocumentResult.properties, delivery: MailDelivery });
export type UploadVisaDocumentAnswer = Static<typeof UploadVisaDocumentAnswer>;
export const UploadVisaDocumentResponse = Envelope(UploadVisaDocumentAnswer);

/** The spec's HEAD check: 200 when the order's approved document exists, 404 otherwise (GET gives its facts). */
export const OrderDocumentParams = Type.Object({ orderId: Type.String({ minLength: 1, maxLength: 64 }) });
export const OrderDocumentResponse = Envelope(StoredDocumentInfo);

/** View Email Content: one mail of the order by id, else its latest approval mail, else the one it would get. */
export const MailContentParams = Type.Object({ orderId: Type.String({ minLength: 1, maxLength: 64 }) });
export const MailContentQuery = Type.Object({ mailId: Type.Optional(Type.Integer({ minimum: 1 })) });

export const MailContent = Type.Object({
  orderId: Type.String(),
  /** Absent for a preview: the approval mail the order would get, not yet queued. */
  mailId: Type.Optional(Type.Integer()),
  kind: Type.Enum(MAIL_KINDS),
  state: Type.Union([Type.Enum(MAIL_STATES), Type.Literal('preview')]),
  from: Type.String(),
  to: Type.String(),
  provider: Type.Optional(Type.Enum(MAIL_PROVIDERS)),
  subject: Type.String(),
  html: Type.String(),
  text: Type.String(),
  attachments: Type.Array(Type.Object({ filename: Type.String(), contentType: Type.String() })),
  attempts: Type.Optional(Type.Integer()),
  last_error: Type.Optional(Type.String()),
  provider_message_id: Type.Optional(Type.String()),
  create_ts: Type.Optional(Type.String()),
  sent_at: Type.Optional(Type.String()),
  /** "Send Whatsapp Message": https://wa.me/<digits> for the customer's number with its dialling code. */
  whatsappLink: Type.Optional(Type.String()),
});
export type MailContent = Static<typeof MailContent>;
export const MailContentResponse = Envelope(MailContent);
