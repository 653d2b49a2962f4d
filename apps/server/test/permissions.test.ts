// Who may call what, written out BY HAND from spec §6 and apps/server/src/modules/auth/README.md (not derived from
// the permission table, so a wrong table fails here). Every registered /api route must appear below: a new
// route states its intended roles before it can pass.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { STAFF_TYPES, type StaffType } from '@eta/contracts';
import authPlugin from '../src/plugins/auth.js';
import { buildTestApp, TEST_PASSWORD, type TestApp } from './helpers/test-app.js';

type Who = StaffType | 'anonymous';
const PUBLIC = 'public' as const;
/** A landing site's intake key, never a staff session: everyone without one (staff included) gets 401. */
const INTAKE_KEY = 'intakeKey' as const;
const ALL: StaffType[] = ['Admin', 'Manager', 'Team', 'Telecaller', 'Night Staff'];

interface Case {
  /** The route as registered. */
  route: string;
  /** The request actually sent, when it differs from the route (a queue in the path, a body). */
  url?: string;
  body?: object;
  /** Headers sent besides the staff token. */
  headers?: Record<string, string>;
  allowed: typeof PUBLIC | typeof INTAKE_KEY | StaffType[];
}

const CASES: Case[] = [
  { route: 'GET /api/health', allowed: PUBLIC },
  { route: 'GET /api/ready', allowed: PUBLIC },
  { route: 'GET /api/docs', allowed: PUBLIC },
  { route: 'GET /api/docs/json', allowed: PUBLIC },
  { route: 'GET /api/docs/yaml', allowed: PUBLIC },
  { route: 'GET /api/docs/static/index.html', allowed: PUBLIC },
  { route: 'GET /api/docs/static/swagger-initializer.js', allowed: PUBLIC },
  { route: 'GET /api/docs/static/*', url: '/api/docs/static/swagger-ui.css', allowed: PUBLIC },
  { route: 'GET /api/front/landing-sites/:key', url: '/api/front/landing-sites/default', allowed: PUBLIC },
  // A site's uploaded logo, which the portal and the customers' mails show (the default site has none: 404).
  { route: 'GET /api/front/landing-sites/:key/logo', url: '/api/front/landing-sites/default/logo', allowed: PUBLIC },
  // The customer portal needs no sign-in; the order id AND e-mail (then the proof) decide (portal.test.ts).
  {
    route: 'POST /api/front/track-order',
    body: { orderId: 'ETA-000000001', email: 'nobody@test.local' },
    allowed: PUBLIC,
  },
  { route: 'POST /api/front/get-download-history', body: { orderId: 'ETA-000000001' }, allowed: PUBLIC },
  {
    route: 'POST /api/front/download-passport-doc-pdf',
    body: { orderId: 'ETA-000000001', customername: '', file1: 'x.pdf' },
    allowed: PUBLIC,
  },
  { route: 'GET /api/front/download', url: '/api/front/download?ticket=not-a-real-ticket', allowed: PUBLIC },
  { route: 'POST /api/admin/admin-login', body: { email: 'nobody@test.local', password: 'x' }, allowed: PUBLIC },
  { route: 'POST /api/admin/logout', allowed: ALL },
  { route: 'GET /api/user_info', allowed: ALL },
  // Spec §6: Night Staff do not see Change Password. A too-short password proves the call got past the guard.
  {
    route: 'POST /api/admin/change-password',
    body: { newPassword: '1' },
    allowed: ['Admin', 'Manager', 'Team', 'Telecaller'],
  },
  // The second step of a sign-in (issue 34): its challenge says who; a made-up one is refused past the guard.
  { route: 'POST /api/admin/login-code', body: { challenge: 'x'.repeat(43), code: '123456' }, allowed: PUBLIC },
  { route: 'POST /api/admin/login-enrol', body: { challenge: 'x'.repeat(43) }, allowed: PUBLIC },
  {
    route: 'POST /api/admin/login-enrol/confirm',
    body: { challenge: 'x'.repeat(43), code: '123456' },
    allowed: PUBLIC,
  },
  { route: 'POST /api/admin/login-passkey/options', body: { challenge: 'x'.repeat(43) }, allowed: PUBLIC },
  {
    route: 'POST /api/admin/login-passkey',
    body: { challenge: 'x'.repeat(43), response: { id: 'x', rawId: 'x', type: 'public-key', response: {} } },
    allowed: PUBLIC,
  },
  // Sign-ins that prove themselves: a passkey alone (turned off here: 404), single sign-on (not set up here: 404).
  { route: 'GET /api/admin/sign-in-options', allowed: PUBLIC },
  { route: 'POST /api/admin/passkey-sign-in/options', allowed: PUBLIC },
  {
    route: 'POST /api/admin/passkey-sign-in',
    body: { response: { id: 'x', rawId: 'x', type: 'public-key', response: {} } },
    allowed: PUBLIC,
  },
  { route: 'POST /api/admin/sso/start', allowed: PUBLIC },
  {
    route: 'POST /api/admin/sso/callback',
    body: { callback: `code=x&state=${'x'.repeat(43)}`, state: 'x'.repeat(43) },
    allowed: PUBLIC,
  },
  // A member's own sign-in: everyone, Night Staff too (their factor and sessions are theirs).
  { route: 'POST /api/admin/confirm-identity', body: { password: TEST_PASSWORD }, allowed: ALL },
  { route: 'GET /api/admin/my-security', allowed: ALL },
  { route: 'POST /api/admin/my-security/totp', allowed: ALL },
  { route: 'POST /api/admin/my-security/totp/confirm', body: { code: '123456' }, allowed: ALL },
  { route: 'POST /api/admin/my-security/totp/remove', allowed: ALL },
  { route: 'POST /api/admin/my-security/recovery-codes', allowed: ALL },
  { route: 'POST /api/admin/my-security/passkeys/options', allowed: ALL },
  {
    route: 'POST /api/admin/my-security/passkeys',
    body: {
      challenge: 'x'.repeat(43),
      name: 'Laptop',
      response: { id: 'x', rawId: 'x', type: 'public-key', response: {} },
    },
    allowed: ALL,
  },
  {
    route: 'POST /api/admin/my-security/passkeys/:passkeyId/remove',
    url: '/api/admin/my-security/passkeys/no-such-passkey/remove',
    allowed: ALL,
  },
  { route: 'GET /api/admin/my-sessions', allowed: ALL },
  { route: 'POST /api/admin/my-sessions/end-others', allowed: ALL },
  { route: 'POST /api/admin/sessions/:sessionId/end', url: '/api/admin/sessions/no-such-session/end', allowed: ALL },
  // Another member's sessions: whoever manages the team; a factor reset and the policy: Admin only.
  {
    route: 'GET /api/admin/team-member-sessions/:id',
    url: '/api/admin/team-member-sessions/999999',
    allowed: ['Admin', 'Manager'],
  },
  {
    route: 'POST /api/admin/team-member-factors/:id/reset',
    url: '/api/admin/team-member-factors/999999/reset',
    allowed: ['Admin'],
  },
  { route: 'GET /api/admin/sign-in-policy', allowed: ['Admin'] },
  // An empty list keeps the test's own policy (password alone) for the cases after this one.
  { route: 'PUT /api/admin/sign-in-policy', body: { mfaRoles: [] }, allowed: ['Admin'] },
  { route: 'GET /api/admin/get-folder-count', allowed: ALL },
  { route: 'GET /api/admin/get-orders-list/:orderName', url: '/api/admin/get-orders-list/newOrder', allowed: ALL },
  // Spec §6: the Order History link is hidden from Telecaller, so the list behind it is refused too.
  {
    route: 'GET /api/admin/get-orders-list/:orderName',
    url: '/api/admin/get-orders-list/orderHistory?limit=5000',
    allowed: ['Admin', 'Manager', 'Team', 'Night Staff'],
  },
  {
    route: 'POST /api/admin/search-order',
    body: { start: 0, end: 10, searchVal: 'a', folderName: 'newOrder' },
    allowed: ALL,
  },
  {
    route: 'POST /api/admin/search-order',
    body: { start: 0, end: 10, searchVal: 'a', folderName: 'orderHistory' },
    allowed: ['Admin', 'Manager', 'Team', 'Night Staff'],
  },
  { route: 'GET /api/admin/future-order-counts', allowed: ALL },
  // Issue 35: each member's urgent-first choices; the target times are an Admin's; the late orders cross every queue,
  // so they are for those who may open Order History.
  { route: 'GET /api/admin/queue-settings', allowed: ALL },
  {
    route: 'PUT /api/admin/queue-settings/urgent-first',
    body: { queue: 'newOrder', urgentFirst: true },
    allowed: ALL,
  },
  {
    route: 'PUT /api/admin/processing-targets',
    body: { Priority: 120, Standard: 1440, Future: 1440 },
    allowed: ['Admin'],
  },
  {
    route: 'GET /api/admin/waiting-too-long',
    allowed: ['Admin', 'Manager', 'Team', 'Night Staff'],
  },
  // Everyone claims and releases orders (spec §6 "Assign to me is shown to everyone").
  {
    route: 'PUT /api/admin/assign-order-status',
    body: { orderId: ['ETA-000000001'], assignto: '', versions: { 'ETA-000000001': 1 } },
    allowed: ALL,
  },
  // Assigning to someone else is for Manager and Admin (apps/server/src/modules/orders/README.md).
  {
    route: 'PUT /api/admin/assign-order-status',
    body: { orderId: ['ETA-000000001'], assignto: 'Someone Else Entirely', versions: { 'ETA-000000001': 1 } },
    allowed: ['Admin', 'Manager'],
  },
  {
    route: 'PUT /api/admin/change-order-status',
    body: { orderId: ['ETA-000000001'], updatingStatus: 'Awaiting', versions: { 'ETA-000000001': 1 } },
    allowed: ALL,
  },
  // Spec §6: Delete is for Manager and Admin only.
  {
    route: 'PUT /api/admin/change-order-status',
    body: { orderId: ['ETA-000000001'], updatingStatus: 'Deleted', versions: { 'ETA-000000001': 1 } },
    allowed: ['Admin', 'Manager'],
  },
  // DESIGN §3: only an Admin restores a deleted order.
  {
    route: 'PUT /api/admin/change-order-status',
    body: { orderId: ['ETA-000000001'], updatingStatus: 'New', versions: { 'ETA-000000001': 1 } },
    allowed: ['Admin'],
  },
  {
    route: 'PUT /api/admin/move-to-complete-refund',
    body: { orderId: ['ETA-000000001'], versions: { 'ETA-000000001': 1 } },
    allowed: ALL,
  },
  // The order detail page: everyone who works orders reads, comments and moves them (spec §4).
  {
    route: 'GET /api/admin/get-orders-details/:orderId',
    url: '/api/admin/get-orders-details/ETA-000000001',
    allowed: ALL,
  },
  { route: 'POST /api/admin/add-new-remark', body: { orderId: 'ETA-000000001', remark: 'x' }, allowed: ALL },
  {
    route: 'PUT /api/admin/move-order-status',
    body: { orderId: 'ETA-000000001', updatingStatus: 'AwaitingGovt', version: 1 },
    allowed: ALL,
  },
  {
    route: 'PUT /api/admin/move-order-status',
    body: { orderId: 'ETA-000000001', updatingStatus: 'Deleted', version: 1 },
    allowed: ['Admin', 'Manager'],
  },
  {
    route: 'PUT /api/admin/move-order-status',
    body: { orderId: 'ETA-000000001', updatingStatus: 'New', version: 1 },
    allowed: ['Admin'],
  },
  {
    route: 'POST /api/admin/save-transaction-details',
    body: { orderId: 'ETA-000000001', transactionId: 'ch_1', merchantName: 'M', version: 1 },
    allowed: ALL,
  },
  // Evidence and invoices: spec §2 shows Defence Pack 1 and 2 and the Send Invoice page to everyone who works
  // orders (§6 hides neither); the order's status, not the role, decides whether a pack can be built.
  {
    route: 'POST /api/admin/get-defence-pack-pdf',
    body: { orderId: 'ETA-000000001', defencePackType: 1 },
    allowed: ALL,
  },
  {
    route: 'POST /api/admin/defence-pack-details',
    body: { orderId: 'ETA-000000001', defencePackType: 2 },
    allowed: ALL,
  },
  { route: 'POST /api/admin/send-invoice', body: { orderId: 'ETA-000000001' }, allowed: ALL },
  // Delivery (apps/server/src/modules/documents/README.md): everyone who works orders uploads the approved
  // document, checks that it exists, resends its mail and views what the mail says.
  { route: 'POST /api/admin/upload-visa-document', allowed: ALL },
  {
    route: 'GET /api/admin/order-document/:orderId',
    url: '/api/admin/order-document/ETA-000000001',
    allowed: ALL,
  },
  {
    route: 'POST /api/admin/resend-mail',
    body: { orderId: 'ETA-000000001', email: 'someone@customer.test', mailServiceProvider: 'AWS' },
    allowed: ALL,
  },
  { route: 'GET /api/admin/email-content/:orderId', url: '/api/admin/email-content/ETA-000000001', allowed: ALL },
  // Administration (issue 10): only Admin and Manager manage the team and the gateway (a Manager never an
  // Admin's account: the team tests); Country Order List is hidden from nobody (spec §6); Order Processed is
  // Admin only (spec §6); the audit trail is for Admin.
  { route: 'GET /api/admin/get-team-member-list', allowed: ['Admin', 'Manager'] },
  { route: 'GET /api/admin/get-team-member-type', allowed: ['Admin', 'Manager'] },
  { route: 'GET /api/admin/team-member-info/:id', url: '/api/admin/team-member-info/1', allowed: ['Admin', 'Manager'] },
  { route: 'POST /api/admin/add-team-member', body: {}, allowed: ['Admin', 'Manager'] },
  { route: 'POST /api/admin/update-team-member', body: { tmId: 999_999 }, allowed: ['Admin', 'Manager'] },
  { route: 'PUT /api/admin/delete-team-member', body: { teamMemberId: 999_999 }, allowed: ['Admin', 'Manager'] },
  { route: 'GET /api/admin/payment-gateways', allowed: ['Admin', 'Manager'] },
  { route: 'POST /api/admin/payment-gateway-setting', body: { gatewayId: 999_999 }, allowed: ['Admin', 'Manager'] },
  { route: 'POST /api/admin/get-country-order-count', body: {}, allowed: ALL },
  { route: 'GET /api/admin/get-country-order-count/csv', allowed: ALL },
  { route: 'POST /api/admin/get-processed-by-count', body: {}, allowed: ['Admin'] },
  { route: 'GET /api/admin/get-processed-by-count/csv', allowed: ['Admin'] },
  { route: 'GET /api/admin/activity', allowed: ['Admin'] },
  { route: 'GET /api/admin/activity-people', allowed: ['Admin'] },
  { route: 'GET /api/admin/activity/csv', allowed: ['Admin'] },
  { route: 'GET /api/front/active-gateway', allowed: PUBLIC },
  // Landing sites, their intake keys and legal texts (issue 20): Admin only.
  { route: 'GET /api/admin/landing-sites', allowed: ['Admin'] },
  {
    route: 'GET /api/admin/landing-sites/:key/legal/:version',
    url: '/api/admin/landing-sites/default/legal/1',
    allowed: ['Admin'],
  },
  {
    route: 'POST /api/admin/landing-sites/:key/intake-key',
    url: '/api/admin/landing-sites/no-such-site/intake-key',
    body: {},
    allowed: ['Admin'],
  },
  {
    route: 'POST /api/admin/landing-sites/:key/legal',
    url: '/api/admin/landing-sites/no-such-site/legal',
    body: { disclaimer: 'x', fee_text: 'y' },
    allowed: ['Admin'],
  },
  // Adding a site and editing its branding and logo (issue 33): Admin only. A key the server refuses (400) proves the
  // call got past the guard without adding a site.
  {
    route: 'POST /api/admin/landing-sites',
    body: {
      key: 'Not A Key',
      display_name: 'x',
      mail_sender: 'x',
      footer_contact: 'x',
      disclaimer: 'x',
      fee_text: 'y',
    },
    allowed: ['Admin'],
  },
  {
    route: 'PUT /api/admin/landing-sites/:key/branding',
    url: '/api/admin/landing-sites/no-such-site/branding',
    body: { display_name: 'x', mail_sender: 'x@x.example', footer_contact: 'x@x.example', version: 1 },
    allowed: ['Admin'],
  },
  {
    route: 'POST /api/admin/landing-sites/:key/logo',
    url: '/api/admin/landing-sites/no-such-site/logo',
    allowed: ['Admin'],
  },
  // The signature on the order detail page: everyone who opens orders.
  { route: 'GET /api/admin/order-signature/:orderId', url: '/api/admin/order-signature/ETA-000000001', allowed: ALL },
  // Payments and disputes (issue 21): a dispute is read by everyone who opens orders, answered by Admin and
  // Manager; the report for Admin and Manager; the gateways' health and unmatched webhooks for Admin.
  { route: 'GET /api/admin/disputes/:orderId', url: '/api/admin/disputes/ETA-000000001', allowed: ALL },
  {
    route: 'GET /api/admin/disputes/:orderId/evidence',
    url: '/api/admin/disputes/ETA-000000001/evidence?defencePackType=1',
    allowed: ['Admin', 'Manager'],
  },
  {
    route: 'GET /api/admin/disputes/:orderId/evidence.pdf',
    url: '/api/admin/disputes/ETA-000000001/evidence.pdf?defencePackType=1',
    allowed: ['Admin', 'Manager'],
  },
  {
    route: 'POST /api/admin/disputes/:orderId/evidence',
    url: '/api/admin/disputes/ETA-000000001/evidence',
    body: { defencePackType: 1, submit: false },
    allowed: ['Admin', 'Manager'],
  },
  { route: 'POST /api/admin/reports/disputes', body: {}, allowed: ['Admin', 'Manager'] },
  { route: 'GET /api/admin/reports/disputes/csv', allowed: ['Admin', 'Manager'] },
  { route: 'GET /api/admin/payment-gateways/health', allowed: ['Admin'] },
  { route: 'GET /api/admin/gateway-events/unmatched', allowed: ['Admin'] },
  // Reads of personal data on the record (issue 24): an order's "Viewed by" for Admin and Manager (a Telecaller,
  // Team member or Night Staff cannot see who read what); every read and the alerts for Admin, who acknowledges.
  {
    route: 'GET /api/admin/orders/:orderId/access-records',
    url: '/api/admin/orders/ETA-000000001/access-records',
    allowed: ['Admin', 'Manager'],
  },
  { route: 'GET /api/admin/access-records', allowed: ['Admin'] },
  { route: 'GET /api/admin/access-alerts', allowed: ['Admin'] },
  {
    route: 'POST /api/admin/access-alerts/:alertId/acknowledge',
    url: '/api/admin/access-alerts/999999/acknowledge',
    allowed: ['Admin'],
  },
  // Retention, legal hold and customers' requests (issue 24): Admin only. Unknown sites, runs and orders, a body
  // that fails validation, or an e-mail nobody used prove that the call got past the guard.
  { route: 'GET /api/admin/retention', allowed: ['Admin'] },
  {
    route: 'PUT /api/admin/retention/policies/:key',
    url: '/api/admin/retention/policies/no-such-site',
    body: { months: 12 },
    allowed: ['Admin'],
  },
  { route: 'POST /api/admin/retention/runs', body: { dryRun: 'no' }, allowed: ['Admin'] },
  { route: 'GET /api/admin/retention/runs/:id', url: '/api/admin/retention/runs/999999', allowed: ['Admin'] },
  {
    route: 'POST /api/admin/legal-hold',
    body: { orderId: 'ETA-000000001', reason: 'Litigation' },
    allowed: ['Admin'],
  },
  { route: 'POST /api/admin/legal-hold/release', body: { orderId: 'ETA-000000001' }, allowed: ['Admin'] },
  { route: 'POST /api/admin/subject-requests/summary', body: { email: 'nobody@test.local' }, allowed: ['Admin'] },
  { route: 'POST /api/admin/subject-requests/export.json', body: { email: 'nobody@test.local' }, allowed: ['Admin'] },
  { route: 'POST /api/admin/subject-requests/export.pdf', body: { email: 'nobody@test.local' }, allowed: ['Admin'] },
  {
    route: 'POST /api/admin/subject-requests/erase',
    body: { email: 'nobody@test.local', confirm: true },
    allowed: ['Admin'],
  },
  // The gateways' webhooks: their signature decides (payments-stripe.test.ts), never a session.
  { route: 'POST /api/webhooks/stripe', body: {}, allowed: PUBLIC },
  { route: 'POST /api/webhooks/paypal', body: {}, allowed: PUBLIC },
  // The landing sites' front door: their intake key only (intake.test.ts), never a staff token.
  { route: 'POST /api/intake/orders', body: {}, allowed: INTAKE_KEY },
  // The live desk (issue 23): everyone who works orders. The stream is asked for as JSON, which it refuses with
  // 406 once past the guard, so the matrix is not left holding open streams (tickets: live-desk.test.ts).
  { route: 'POST /api/admin/events/ticket', allowed: ALL },
  { route: 'GET /api/admin/events', headers: { accept: 'application/json' }, allowed: ALL },
  {
    route: 'PUT /api/admin/orders/:orderId/presence',
    url: '/api/admin/orders/ETA-000000001/presence',
    body: { activity: 'viewing' },
    allowed: ALL,
  },
];

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  await t.signIn('Manager', 'Someone Else Entirely');
});
afterAll(() => t.close());

const keyOf = (c: Case) => c.route;

async function call(c: Case, who: Who) {
  const [method, path] = c.route.split(' ') as ['GET' | 'POST' | 'PUT', string];
  // A fresh session each time: logout and a refused call must not spoil the next case.
  const headers = { ...c.headers, ...(who === 'anonymous' ? {} : { authorization: (await t.signIn(who)).token }) };
  return t.app.inject({ method, url: c.url ?? path, headers, ...(c.body ? { payload: c.body } : {}) });
}

describe('authorization matrix (spec §6, by hand)', () => {
  it('names every registered /api route', () => {
    const registered = new Set(t.app.apiRoutes.map((r) => `${r.method} ${r.url}`));
    const covered = new Set(CASES.map(keyOf));
    expect([...registered].filter((r) => !covered.has(r))).toEqual([]);
    expect([...covered].filter((r) => !registered.has(r))).toEqual([]);
  });

  it.each(CASES.map((c) => [`${c.route} ${c.url ?? ''} ${c.body ? JSON.stringify(c.body) : ''}`, c] as const))(
    '%s',
    async (_label, c) => {
      for (const who of ['anonymous', ...STAFF_TYPES] as Who[]) {
        const res = await call(c, who);
        const isJson = String(res.headers['content-type']).startsWith('application/json');
        const body: { code?: string } = isJson ? res.json() : {};
        if (c.allowed === INTAKE_KEY) {
          expect(res.statusCode, `${who}: ${res.body.slice(0, 200)}`).toBe(401);
          expect(body.code).toBe('UNAUTHORIZED');
          continue;
        }
        const allowed = c.allowed === PUBLIC || (who !== 'anonymous' && c.allowed.includes(who));
        if (allowed) {
          expect(res.statusCode, `${who}: ${res.body.slice(0, 200)}`).not.toBe(403);
          expect(['UNAUTHORIZED', 'SESSION_EXPIRED'], `${who}: ${res.body.slice(0, 200)}`).not.toContain(body.code);
        } else if (who === 'anonymous') {
          expect(res.statusCode, who).toBe(401);
          expect(body.code).toBe('UNAUTHORIZED');
        } else {
          expect(res.statusCode, `${who}: ${res.body.slice(0, 200)}`).toBe(403);
          expect(body.code).toBe('FORBIDDEN');
        }
      }
    },
  );

  it('a HEAD request is refused exactly like its GET', async () => {
    const telecaller = await t.signIn('Telecaller');
    const res = await t.app.inject({
      method: 'HEAD',
      url: '/api/admin/get-orders-list/orderHistory',
      headers: { authorization: telecaller.token },
    });
    expect(res.statusCode).toBe(403);
    expect(res.body).toBe('');
  });

  it('every refusal is in the audit trail with who, what and from where', async () => {
    const telecaller = await t.signIn('Telecaller');
    await t.app.inject({
      url: '/api/admin/get-orders-list/orderHistory?limit=5000',
      headers: { authorization: telecaller.token },
      remoteAddress: '198.51.100.4',
    });
    const rows = await t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'security.forbidden')
      .where('actor_id', '=', telecaller.id)
      .execute();
    expect(rows).toEqual([
      expect.objectContaining({ target: 'GET /api/admin/get-orders-list/orderHistory', ip: '198.51.100.4' }),
    ]);
    // Refused by the route guard itself rather than by a service.
    const night = await t.signIn('Night Staff');
    await t.app.inject({
      method: 'POST',
      url: '/api/admin/change-password',
      headers: { authorization: night.token },
      payload: { newPassword: 'abcdefgh' },
    });
    const guard = await t.database.db
      .selectFrom('audit_log')
      .select(['target', 'actor_name'])
      .where('action', '=', 'security.forbidden')
      .where('actor_id', '=', night.id)
      .execute();
    expect(guard).toEqual([{ target: 'POST /api/admin/change-password', actor_name: night.name }]);
  });

  it('refuses to start with a route that has no entry in the table', async () => {
    const bare = Fastify({ logger: false });
    await bare.register(authPlugin);
    expect(() => bare.get('/api/admin/secret-new-thing', async () => ({}))).toThrow(
      /GET \/api\/admin\/secret-new-thing has no entry in PERMISSIONS/,
    );
    await bare.close();
  });
});
