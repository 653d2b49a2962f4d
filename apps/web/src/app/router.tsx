// The staff console's route table (the customer portal is its own page, portal.html). Every screen is a lazy
// chunk of its own, and so is the /admin shell: a page's first load is the entry, the shell (for /admin pages)
// and that page, which react-router fetches together. Paths come from config/paths.
import type { ReactNode } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { QUEUES, QUEUE_NAMES, queueCapability } from '@eta/contracts/domain';
import { NotFoundPage } from '../components/not-found-page';
import { PageLoader } from '../components/page-loader';
import { paths } from '../config/paths';

/** Each lazy route module, once: the route table below and the tests' preloading both use this list. */
export const routeModules = {
  entry: () => import('./routes/entry-route'),
  shell: () => import('./routes/staff-shell'),
  dashboard: () => import('./routes/dashboard-route'),
  queue: () => import('./routes/queue-route'),
  futureOrder: () => import('./routes/future-order-route'),
  viewOrder: () => import('./routes/view-order-route'),
  sendInvoice: () => import('./routes/send-invoice-route'),
  changePassword: () => import('./routes/change-password-route'),
  security: () => import('./routes/security-route'),
  administration: () => import('./routes/administration-routes'),
};

function page<Module>(path: string, load: () => Promise<Module>, render: (module: Module) => ReactNode): RouteObject {
  return { path, lazy: async () => ({ element: render(await load()) }) };
}

// A queue's page is guarded by the same capability the server checks for its list (e.g. Order History).
const queueRoutes: RouteObject[] = QUEUE_NAMES.filter((queue) => queue !== 'futureOrder').map((queue) =>
  page(QUEUES[queue].path, routeModules.queue, ({ QueueRoute }) => (
    <QueueRoute queue={queue} capability={queueCapability(queue)} title={QUEUES[queue].title} />
  )),
);

export const routes: RouteObject[] = [
  {
    HydrateFallback: PageLoader,
    children: [
      page(paths.entry, routeModules.entry, ({ EntryRoute }) => <EntryRoute />),
      page(paths.ssoCallback, routeModules.entry, ({ SsoCallbackRoute }) => <SsoCallbackRoute />),
      {
        path: paths.dashboard,
        lazy: async () => ({ Component: (await routeModules.shell()).StaffShell }),
        children: [
          { index: true, lazy: async () => ({ Component: (await routeModules.dashboard()).DashboardRoute }) },
          ...queueRoutes,
          page(paths.futureOrder, routeModules.futureOrder, ({ FutureOrderRoute }) => <FutureOrderRoute />),
          page(paths.viewOrder.pattern, routeModules.viewOrder, ({ ViewOrderRoute }) => <ViewOrderRoute />),
          page(paths.waitingTooLong, routeModules.queue, ({ WaitingTooLongRoute }) => <WaitingTooLongRoute />),
          page(paths.countryOrderList, routeModules.administration, ({ CountryReportRoute }) => <CountryReportRoute />),
          page(paths.sendInvoice, routeModules.sendInvoice, ({ SendInvoiceRoute }) => <SendInvoiceRoute />),
          page(paths.manageTeam, routeModules.administration, ({ ManageTeamRoute }) => <ManageTeamRoute />),
          page(paths.manageTeamMember, routeModules.administration, ({ ManageTeamRoute }) => <ManageTeamRoute />),
          page(paths.processedOrder, routeModules.administration, ({ ProcessedReportRoute }) => (
            <ProcessedReportRoute />
          )),
          page(paths.disputesReport, routeModules.administration, ({ DisputesReportRoute }) => <DisputesReportRoute />),
          page(paths.gatewaySetting, routeModules.administration, ({ GatewaySettingRoute }) => <GatewaySettingRoute />),
          page(paths.landingSites, routeModules.administration, ({ LandingSitesRoute }) => <LandingSitesRoute />),
          page(paths.activity, routeModules.administration, ({ ActivityRoute }) => <ActivityRoute />),
          page(paths.retention, routeModules.administration, ({ RetentionRoute }) => <RetentionRoute />),
          page(paths.subjectRequests, routeModules.administration, ({ SubjectRequestsRoute }) => (
            <SubjectRequestsRoute />
          )),
          page(paths.changePassword, routeModules.changePassword, ({ ChangePasswordRoute }) => <ChangePasswordRoute />),
          page(paths.security, routeModules.security, ({ SecurityRoute }) => <SecurityRoute />),
          { path: '*', element: <NotFoundPage homePath={paths.dashboard} /> },
        ],
      },
      { path: '*', Component: NotFoundPage },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
