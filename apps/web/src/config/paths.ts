// Every route path of the app, in one place. Queue routes come from the contracts' QUEUES table.
import type { QueueName } from '@eta/contracts';
import { QUEUES } from '@eta/contracts/domain';
import { encodeOrderId } from '../lib/order-id';

export const paths = {
  entry: '/',
  /** Where a single sign-on provider sends the browser back (PUBLIC_URL/login/sso, registered at the provider). */
  ssoCallback: '/login/sso',
  dashboard: '/admin',
  queue: (queue: QueueName): string => QUEUES[queue].path,
  futureOrder: QUEUES.futureOrder.path,
  viewOrder: {
    pattern: '/admin/view-order/:encodedId',
    build: (orderId: string): string => `/admin/view-order/${encodeOrderId(orderId)}`,
  },
  /** Open orders past their processing type's target time (issue 35). */
  waitingTooLong: '/admin/waiting-too-long',
  countryOrderList: '/admin/country-order-list',
  sendInvoice: '/admin/send-invoice',
  manageTeam: '/admin/manage-team',
  manageTeamMember: '/admin/manage-team/:teamMemberId',
  processedOrder: '/admin/processed-order',
  disputesReport: '/admin/disputes-report',
  gatewaySetting: '/admin/gateway-setting',
  landingSites: '/admin/landing-sites',
  changePassword: '/admin/change-password',
  security: '/admin/security',
  activity: '/admin/activity',
  retention: '/admin/retention',
  subjectRequests: '/admin/customer-requests',
} as const;
