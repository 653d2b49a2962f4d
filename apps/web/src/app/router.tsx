// The staff console's route table (the customer portal is its own page, portal.html). The console is a lazy
// chunk. Paths come from config/paths.
import type { ReactNode } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { QUEUES, QUEUE_NAMES, queueCapability } from '@eta/contracts/domain';
import { NotFoundPage } from '../components/not-found-page';
import { PageLoader } from '../components/page-loader';
import { paths } from '../config/paths';
import type * as ConsoleRoutes from './routes/console-routes';
import type * as AdministrationRoutes from './routes/administration-routes';

type StaffModule = typeof ConsoleRoutes;

const loadStaff = (): Promise<StaffModule> => import('./routes/console-routes');
const loadAdministration = (): Promise<typeof AdministrationRoutes> => import('./routes/administration-routes');

function staffPage(path: string, render: (module: StaffModule) => ReactNode): RouteObject {
  return { path, lazy: async () => ({ element: render(await loadStaff()) }) };
}

function adminPage(path: string, render: (module: typeof AdministrationRoutes) => ReactNode): RouteObject {
  return { path, lazy: async () => ({ element: render(await loadAdministration()) }) };
}

// A queue's page is guarded by the same capability the server checks for its list (e.g. Order History).
const queueRoutes: RouteObject[] = QUEUE_NAMES.filter((queue) => queue !== 'futureOrder').map((queue) =>
  staffPage(QUEUES[queue].path, ({ QueueRoute }) => (
    <QueueRoute queue={queue} capability={queueCapability(queue)} title={QUEUES[queue].title} />
  )),
);

export const routes: RouteObject[] = [
  {
    HydrateFallback: PageLoader,
    children: [
      staffPage(paths.entry, ({ EntryRoute }) => <EntryRoute />),
      {
        path: paths.dashboard,
        lazy: async () => ({ Component: (await loadStaff()).StaffShell }),
        children: [
          { index: true, lazy: async () => ({ Component: (await loadStaff()).DashboardRoute }) },
          ...queueRoutes,
          staffPage(paths.futureOrder, ({ FutureOrderRoute }) => <FutureOrderRoute />),
          staffPage(paths.viewOrder.pattern, ({ ViewOrderRoute }) => <ViewOrderRoute />),
          adminPage(paths.countryOrderList, ({ CountryReportRoute }) => <CountryReportRoute />),
          staffPage(paths.sendInvoice, ({ SendInvoiceRoute }) => <SendInvoiceRoute />),
          adminPage(paths.manageTeam, ({ ManageTeamRoute }) => <ManageTeamRoute />),
          adminPage(paths.manageTeamMember, ({ ManageTeamRoute }) => <ManageTeamRoute />),
          adminPage(paths.processedOrder, ({ ProcessedReportRoute }) => <ProcessedReportRoute />),
          adminPage(paths.gatewaySetting, ({ GatewaySettingRoute }) => <GatewaySettingRoute />),
          adminPage(paths.activity, ({ ActivityRoute }) => <ActivityRoute />),
          staffPage(paths.changePassword, ({ ChangePasswordRoute }) => <ChangePasswordRoute />),
          staffPage('*', ({ AdminNotFoundRoute }) => <AdminNotFoundRoute />),
        ],
      },
      { path: '*', Component: NotFoundPage },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
