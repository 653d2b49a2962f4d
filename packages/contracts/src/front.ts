// The public side (spec §2 "Public routes", §7 "Public"): landing-site branding and the customer portal's calls.
// A customer proves an order with its id AND e-mail; track-order answers with a short-lived proof bound to that
// order, which the history and download calls carry in the TRACK_PROOF_HEADER header.
import { Type, type Static } from 'typebox';
import { TRACK_ORDER_MESSAGES } from './domain.js';
import { Envelope } from './envelope.js';

/** Public branding of a landing site (spec §1): logo, menu links, footer contact. */
export const LandingSiteBranding = Type.Object({
  key: Type.String(),
  display_name: Type.String(),
  logo_url: Type.String(),
  menu_links: Type.Array(Type.Object({ label: Type.String(), url: Type.String() })),
  footer_contact: Type.String(),
  support_phone: Type.Union([Type.String(), Type.Null()]),
  /** The external translation widget's script, when the operator configured one (TRANSLATE_WIDGET_URL). */
  translate_widget_url: Type.Union([Type.String(), Type.Null()]),
});
export type LandingSiteBranding = Static<typeof LandingSiteBranding>;
export const LandingSiteParams = Type.Object({ key: Type.String({ pattern: '^[a-z0-9-]{1,40}$' }) });
export const LandingSiteResponse = Envelope(LandingSiteBranding);

/** GET /api/health: the process is alive (`database` names the driver; the database itself is not asked). */
export const HealthResponse = Envelope(Type.Object({ database: Type.String() }));
/** GET /api/ready: this server should get traffic (database reachable, every migration applied, not shutting down). */
export const ReadyResponse = Envelope(Type.Object({ database: Type.String(), migration: Type.String() }));

const requiredText = (message: string, maxLength: number) =>
  Type.String({
    maxLength,
    allOf: [{ minLength: 1, pattern: '\\S', errorMessage: message }],
    errorMessage: { default: message, maxLength: `${message} (at most ${maxLength} characters)` },
  });

/** Spec §7 `POST /front/track-order`. */
export const TrackOrderBody = Type.Object({
  orderId: requiredText(TRACK_ORDER_MESSAGES.orderIdRequired, 64),
  email: requiredText(TRACK_ORDER_MESSAGES.emailRequired, 254),
});
export type TrackOrderBody = Static<typeof TrackOrderBody>;

export const TrackedOrder = Type.Object({
  orderId: Type.String(),
  /** The proof for this order's history and download calls. */
  proof: Type.String(),
  expiresAt: Type.String({ format: 'date-time' }),
  /** The order's landing site: the download page is branded by it. */
  landingSite: Type.String(),
});
export type TrackedOrder = Static<typeof TrackedOrder>;
export const TrackOrderResponse = Envelope(TrackedOrder);

/** Spec §7 `POST /front/get-download-history`. */
export const DownloadHistoryBody = Type.Object({ orderId: requiredText(TRACK_ORDER_MESSAGES.orderIdRequired, 64) });
export type DownloadHistoryBody = Static<typeof DownloadHistoryBody>;

export const CustomerDownload = Type.Object({
  order_id: Type.String(),
  create_ts: Type.String({ format: 'date-time' }),
  ip: Type.String(),
  device: Type.String(),
  device_type: Type.String(),
  browser: Type.String(),
  os: Type.String(),
  location: Type.String(),
  timezone: Type.Union([Type.String(), Type.Null()]),
});
export type CustomerDownload = Static<typeof CustomerDownload>;

/** Spec §3 "Download history result": the list (data), a mainResult and a path holding file1. */
export const DownloadHistoryResponse = Type.Object({
  status: Type.Literal(1),
  message: Type.String(),
  data: Type.Array(CustomerDownload),
  mainResult: Type.Object({
    order_id: Type.String(),
    customer_name: Type.String(),
    process_status: Type.String(),
    landing_site: Type.String(),
  }),
  /** file1: the approved document's file name; null while the order is still being processed. */
  path: Type.Object({ file1: Type.Union([Type.String(), Type.Null()]) }),
  /** The approval's own facts as the desk read them (issue 35): IRCC's application number and the expiry date. */
  approval: Type.Optional(
    Type.Object({
      applicationNumber: Type.Union([Type.String(), Type.Null()]),
      expiresOn: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
});
export type DownloadHistoryResponse = Static<typeof DownloadHistoryResponse>;

/** Spec §7 `POST /front/download-passport-doc-pdf`; `timezone` is the browser's own (IANA name), for the log. */
export const DownloadDocumentBody = Type.Object({
  orderId: requiredText(TRACK_ORDER_MESSAGES.orderIdRequired, 64),
  customername: Type.String({ maxLength: 200 }),
  file1: Type.String({ minLength: 1, maxLength: 255, errorMessage: 'Choose the document to download.' }),
  timezone: Type.Optional(Type.String({ maxLength: 64, pattern: '^[A-Za-z0-9_+\\-/]+$' })),
});
export type DownloadDocumentBody = Static<typeof DownloadDocumentBody>;
/** Status 1: the page starts the download from `url` (one document, valid for two minutes) a second later. */
export const DownloadDocumentResponse = Envelope(Type.Object({ url: Type.String() }));

export const DownloadTicketQuery = Type.Object({ ticket: Type.String({ minLength: 10, maxLength: 2000 }) });
