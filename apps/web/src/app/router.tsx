// The staff console's route table (the customer portal is its own page, portal.html). The console is a lazy
// chunk. Paths come from config/paths.
import type { ReactNode } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import type { Capability } from '@eta/contracts';
import { QUEUES, QUEUE_NAMES, queueCapability } from '@eta/contracts/domain';
import { NotFoundPage } from '../components/not-found-page';
import { PageLoader } from '../components/page-loader';
import { paths } from '../config/paths';
import type * as ConsoleRoutes from './routes/console-routes';

type StaffModule = typeof ConsoleRoutes;

const loadStaff = (): Promise<StaffModule> => import('./routes/console-routes');

function staffPage(path: string, render: (module: StaffModule) => ReactNode): RouteObject {
  return { path, lazy: async () => ({ element: render(await loadStaff()) }) };
}

// A queue's page is guarded by the same capability the server checks for its list (e.g. Order History).
const queueRoutes: RouteObject[] = QUEUE_NAMES.filter((queue) => queue !== 'futureOrder').map((queue) =>
  staffPage(QUEUES[queue].path, ({ QueueRoute }) => (
    <QueueRoute queue={queue} capability={queueCapability(queue)} title={QUEUES[queue].title} />
  )),
);

const comingSoon = (path: string, title: string, capability?: Capability): RouteObject =>
  staffPage(path, ({ ComingSoonRoute }) => <ComingSoonRoute title={title} capability={capability} />);

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
          comingSoon(paths.countryOrderList, 'Country Order Details'),
          staffPage(paths.sendInvoice, ({ SendInvoiceRoute }) => <SendInvoiceRoute />),
          comingSoon(paths.manageTeam, 'Manage Team', 'manageTeam'),
          comingSoon(paths.manageTeamMember, 'Manage Team', 'manageTeam'),
          comingSoon(paths.processedOrder, 'Processed By', 'viewProcessedOrders'),
          comingSoon(paths.gatewaySetting, 'Change Gateway', 'changeGateway'),
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
