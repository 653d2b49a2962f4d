// Who may call what: every /api route names the capability it needs ('public' = no sign-in). The roles
// behind each capability live in ONE table, CAPABILITIES in packages/contracts, which the web app reads too.
// The guard in plugins/auth.ts denies any /api route missing here, and a test walks every registered route
// against a matrix written by hand from spec §6.
import { CAPABILITIES, type Capability, type StaffType } from '@eta/contracts';
import { AppError } from '../../lib/errors.js';

/** 'intakeKey': a landing site's intake key, not a staff session (checked by the intake service). */
export type Permission = 'public' | 'intakeKey' | Capability;

export const PERMISSIONS: Record<string, Permission> = {
  'GET /api/health': 'public',
  'GET /api/ready': 'public',
  // The OpenAPI document and its viewer describe the public contract; no data behind them.
  'GET /api/docs*': 'public',
  'POST /api/admin/admin-login': 'public',
  'POST /api/admin/logout': 'workOrders',
  'GET /api/user_info': 'workOrders',
  'POST /api/admin/change-password': 'changePassword',
  // The second step of a sign-in (issue 34): its challenge, not a session, says who is signing in.
  'POST /api/admin/login-code': 'public',
  'POST /api/admin/login-enrol': 'public',
  'POST /api/admin/login-enrol/confirm': 'public',
  'POST /api/admin/login-passkey/options': 'public',
  'POST /api/admin/login-passkey': 'public',
  // Sign-ins that prove who it is themselves: a passkey alone (where the policy allows it), single sign-on.
  'GET /api/admin/sign-in-options': 'public',
  'POST /api/admin/passkey-sign-in/options': 'public',
  'POST /api/admin/passkey-sign-in': 'public',
  'POST /api/admin/sso/start': 'public',
  'POST /api/admin/sso/callback': 'public',
  // A member's own sign-in: everyone (Night Staff too: the spec hides only the password page from them). Ending
  // another member's session needs manageTeam and the rank rule, checked by the service.
  'POST /api/admin/confirm-identity': 'workOrders',
  'GET /api/admin/my-security': 'workOrders',
  'POST /api/admin/my-security/totp': 'workOrders',
  'POST /api/admin/my-security/totp/confirm': 'workOrders',
  'POST /api/admin/my-security/totp/remove': 'workOrders',
  'POST /api/admin/my-security/recovery-codes': 'workOrders',
  'POST /api/admin/my-security/passkeys/options': 'workOrders',
  'POST /api/admin/my-security/passkeys': 'workOrders',
  'POST /api/admin/my-security/passkeys/:passkeyId/remove': 'workOrders',
  'GET /api/admin/my-sessions': 'workOrders',
  'POST /api/admin/my-sessions/end-others': 'workOrders',
  'POST /api/admin/sessions/:sessionId/end': 'workOrders',
  'GET /api/admin/team-member-sessions/:id': 'manageTeam',
  'POST /api/admin/team-member-factors/:id/reset': 'manageSignIn',
  'GET /api/admin/sign-in-policy': 'manageSignIn',
  'PUT /api/admin/sign-in-policy': 'manageSignIn',
  'GET /api/admin/get-folder-count': 'workOrders',

  // The queue in the path or body may need more (orderHistory: viewOrderHistory), checked by the service.
  'GET /api/admin/get-orders-list/:orderName': 'workOrders',
  'POST /api/admin/search-order': 'workOrders',
  'PUT /api/admin/assign-order-status': 'workOrders',
  'PUT /api/admin/change-order-status': 'workOrders',
  'PUT /api/admin/move-to-complete-refund': 'workOrders',
  'GET /api/admin/future-order-counts': 'workOrders',
  // Urgent first and waiting time (issue 35): each member's own sort choices; the late orders across every queue.
  'GET /api/admin/queue-settings': 'workOrders',
  'PUT /api/admin/queue-settings/urgent-first': 'workOrders',
  'PUT /api/admin/processing-targets': 'manageTargets',
  'GET /api/admin/waiting-too-long': 'viewOrderHistory',

  // The order detail page; Delete and restore among the moves need more, checked by the service.
  'GET /api/admin/get-orders-details/:orderId': 'workOrders',
  'POST /api/admin/add-new-remark': 'workOrders',
  'PUT /api/admin/move-order-status': 'workOrders',
  'POST /api/admin/save-transaction-details': 'workOrders',
  // Delivery: any staff member who works orders uploads the approved document, resends and views its mail
  // (the order's status is checked by the service: paid, not Deleted or Refund Completed).
  'POST /api/admin/upload-visa-document': 'workOrders',
  'GET /api/admin/order-document/:orderId': 'workOrders',
  'POST /api/admin/resend-mail': 'workOrders',
  'GET /api/admin/email-content/:orderId': 'workOrders',
  // Evidence and invoices: everyone who works orders (spec §2 shows the buttons and the Send Invoice link to all).
  'POST /api/admin/get-defence-pack-pdf': 'workOrders',
  'POST /api/admin/defence-pack-details': 'workOrders',
  'POST /api/admin/send-invoice': 'workOrders',

  // Administration (issue 10): team and gateway for Admin and Manager (a Manager never touches an Admin,
  // checked by the team service); the country report for everyone; Processed By and Activity for Admin.
  'GET /api/admin/get-team-member-list': 'manageTeam',
  'GET /api/admin/get-team-member-type': 'manageTeam',
  'GET /api/admin/team-member-info/:id': 'manageTeam',
  'POST /api/admin/add-team-member': 'manageTeam',
  'POST /api/admin/update-team-member': 'manageTeam',
  'PUT /api/admin/delete-team-member': 'manageTeam',
  'GET /api/admin/payment-gateways': 'changeGateway',
  'POST /api/admin/payment-gateway-setting': 'changeGateway',
  'POST /api/admin/get-country-order-count': 'viewCountryReport',
  'GET /api/admin/get-country-order-count/csv': 'viewCountryReport',
  'POST /api/admin/get-processed-by-count': 'viewProcessedOrders',
  'GET /api/admin/get-processed-by-count/csv': 'viewProcessedOrders',
  'GET /api/admin/activity': 'viewActivity',
  'GET /api/admin/activity-people': 'viewActivity',
  'GET /api/admin/activity/csv': 'viewActivity',
  // Landing sites, their intake keys and legal texts (issue 20): Admin only.
  'GET /api/admin/landing-sites': 'manageLandingSites',
  'GET /api/admin/landing-sites/:key/legal/:version': 'manageLandingSites',
  'POST /api/admin/landing-sites/:key/intake-key': 'manageLandingSites',
  'POST /api/admin/landing-sites/:key/legal': 'manageLandingSites',
  // Adding a site and editing its branding and logo (issue 33): Admin only too.
  'POST /api/admin/landing-sites': 'manageLandingSites',
  'PUT /api/admin/landing-sites/:key/branding': 'manageLandingSites',
  'POST /api/admin/landing-sites/:key/logo': 'manageLandingSites',
  // The signature image on the order detail page.
  'GET /api/admin/order-signature/:orderId': 'workOrders',
  // The live desk (issue 23): everyone who works orders; the stream also takes a ticket (TICKET_ROUTES).
  'POST /api/admin/events/ticket': 'workOrders',
  'GET /api/admin/events': 'workOrders',
  'PUT /api/admin/orders/:orderId/presence': 'workOrders',

  // Payments and disputes (issue 21): an order's disputes for everyone who works orders; evidence for Admin and
  // Manager; the report for Admin and Manager; the gateways' health and unmatched webhooks for Admin.
  'GET /api/admin/disputes/:orderId': 'workOrders',
  'GET /api/admin/disputes/:orderId/evidence': 'submitEvidence',
  'GET /api/admin/disputes/:orderId/evidence.pdf': 'submitEvidence',
  'POST /api/admin/disputes/:orderId/evidence': 'submitEvidence',
  'POST /api/admin/reports/disputes': 'viewDisputesReport',
  'GET /api/admin/reports/disputes/csv': 'viewDisputesReport',
  'GET /api/admin/payment-gateways/health': 'viewGatewayHealth',
  'GET /api/admin/gateway-events/unmatched': 'viewGatewayHealth',
  // Reads of personal data on the record (issue 24): an order's "Viewed by" for Admin and Manager; every read and
  // the unusual-reading alerts on the Activity page for Admin, who alone acknowledges an alert.
  'GET /api/admin/orders/:orderId/access-records': 'viewAccessRecords',
  'GET /api/admin/access-records': 'viewActivity',
  'GET /api/admin/access-alerts': 'viewActivity',
  'POST /api/admin/access-alerts/:alertId/acknowledge': 'acknowledgeAccessAlerts',
  // Retention and legal hold (issue 24): the policies, runs and holds for Admin.
  'GET /api/admin/retention': 'manageRetention',
  'PUT /api/admin/retention/policies/:key': 'manageRetention',
  'POST /api/admin/retention/runs': 'manageRetention',
  'GET /api/admin/retention/runs/:id': 'manageRetention',
  'POST /api/admin/legal-hold': 'placeLegalHold',
  'POST /api/admin/legal-hold/release': 'placeLegalHold',
  // Customers' requests (issue 24): subject access and erasure by e-mail address, Admin only.
  'POST /api/admin/subject-requests/summary': 'answerSubjectRequests',
  'POST /api/admin/subject-requests/export.json': 'answerSubjectRequests',
  'POST /api/admin/subject-requests/export.pdf': 'answerSubjectRequests',
  'POST /api/admin/subject-requests/erase': 'answerSubjectRequests',
  // The gateways' webhooks: no session; the gateway's signature over the raw body is checked by the service.
  'POST /api/webhooks/stripe': 'public',
  'POST /api/webhooks/paypal': 'public',

  // The landing sites' front door: their intake key, never a staff session.
  'POST /api/intake/orders': 'intakeKey',

  'GET /api/front/landing-sites/:key': 'public',
  // A site's uploaded logo: the portal's pages and the customers' mails show it.
  'GET /api/front/landing-sites/:key/logo': 'public',
  // The customer portal: the order id AND e-mail prove the order (then the proof track-order issued), in the
  // portal service; rate-limited per address and per order id there.
  'POST /api/front/track-order': 'public',
  'POST /api/front/get-download-history': 'public',
  'POST /api/front/download-passport-doc-pdf': 'public',
  'GET /api/front/download': 'public',
  'GET /api/front/active-gateway': 'public',
};

/**
 * Routes a browser opens where it cannot send headers (EventSource): a live-desk ticket in ?ticket= stands for the
 * session it was issued to (single use, 30 s: modules/events/event-tickets.ts); the capability is checked as usual.
 */
export const TICKET_ROUTES: ReadonlySet<string> = new Set(['GET /api/admin/events']);

const PREFIXES = Object.entries(PERMISSIONS)
  .filter(([key]) => key.endsWith('*'))
  .map(([key, permission]) => [key.slice(0, -1), permission] as const);

/** The permission for a route ("METHOD /url" as registered), exact entries first, then "prefix*" entries. */
export function permissionFor(method: string, url: string): Permission | undefined {
  const key = `${method} ${url}`;
  return PERMISSIONS[key] ?? PREFIXES.find(([prefix]) => key.startsWith(prefix))?.[1];
}

export const isAllowed = (permission: Permission | undefined, type: StaffType | undefined): boolean =>
  permission === 'public' ||
  (permission !== undefined &&
    permission !== 'intakeKey' &&
    type !== undefined &&
    (CAPABILITIES[permission] as readonly StaffType[]).includes(type));

/** Finer rules inside a service (delete, restore, a queue): refuses with 403 and the rule in words. */
export function assertCan(type: StaffType, capability: Capability, what: string): void {
  if (!isAllowed(capability, type)) throw new AppError('FORBIDDEN', `Your role (${type}) may not ${what}.`);
}
