// The staff console's route components, loaded lazily as one chunk: the entry, the guarded layout and the
// pages inside it. Features are composed here; they never import each other.
import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useOutletContext } from 'react-router';
import Alert from '@mui/material/Alert';
import type { Capability, QueueName } from '@eta/contracts';
import { can } from '@eta/contracts/domain';
import { NotFoundPage } from '../../components/not-found-page';
import { PageHeader } from '../../components/page-header';
import { paths } from '../../config/paths';
import type { SessionUser } from '../../lib/auth/session';
import { useCurrentUser } from '../../lib/auth/use-current-user';
import { ChangePasswordPage } from '../../features/auth/components/change-password-page';
import { SignInPage } from '../../features/auth/components/sign-in-page';
import { DashboardPage } from '../../features/dashboard/components/dashboard-page';
import {
  useFolderCounts,
  useReloadFolderCountsOnRouteChange,
} from '../../features/folder-counts/hooks/use-folder-counts';
import { SendInvoicePage } from '../../features/invoices/components/send-invoice-page';
import { StaffLayout } from '../../features/layout/components/staff-layout';
import { OrderDetailPage } from '../../features/order-detail/components/order-detail-page';
import { FutureOrderPage } from '../../features/orders/components/future-order-page';
import { QueuePage } from '../../features/orders/components/queue-page';

interface StaffOutletContext {
  user: SessionUser;
}

export function useStaffUser(): SessionUser {
  return useOutletContext<StaffOutletContext>().user;
}

/** '/': sign-in while signed out, the dashboard once signed in (DESIGN §7). */
export function EntryRoute() {
  const user = useCurrentUser();
  return user ? <Navigate to={paths.dashboard} replace /> : <SignInPage redirectTo={paths.dashboard} />;
}

function SignedInShell({ user }: { user: SessionUser }) {
  const counts = useFolderCounts(user.name);
  useReloadFolderCountsOnRouteChange(user.name);
  const context: StaffOutletContext = { user };
  return (
    <StaffLayout user={user} counts={counts}>
      <Outlet context={context} />
    </StaffLayout>
  );
}

/** Every /admin page: signed out, sign-in shows in its place and comes back to it afterwards. */
export function StaffShell() {
  const user = useCurrentUser();
  const location = useLocation();
  if (!user) return <SignInPage redirectTo={`${location.pathname}${location.search}`} />;
  return <SignedInShell user={user} />;
}

/** The page when the signed-in role holds the capability, else a refusal without any request for its data. */
export function Allowed({
  capability,
  title,
  children,
}: {
  capability?: Capability;
  title: string;
  children: ReactNode;
}) {
  const user = useStaffUser();
  if (!capability || can(user.type, capability)) return children;
  return (
    <>
      <PageHeader title={title} />
      <Alert severity="warning">You do not have access to this page.</Alert>
    </>
  );
}

export function DashboardRoute() {
  const user = useStaffUser();
  return <DashboardPage counts={useFolderCounts(user.name)} />;
}

export function QueueRoute({ queue, capability, title }: { queue: QueueName; capability: Capability; title: string }) {
  const user = useStaffUser();
  return (
    <Allowed capability={capability} title={title}>
      <QueuePage key={queue} queue={queue} user={user} />
    </Allowed>
  );
}

export function FutureOrderRoute() {
  return <FutureOrderPage user={useStaffUser()} />;
}

export function ChangePasswordRoute() {
  return (
    <Allowed capability="changePassword" title="Change Password">
      <ChangePasswordPage />
    </Allowed>
  );
}

export function SendInvoiceRoute() {
  return (
    <Allowed capability="workOrders" title="Send Invoice">
      <SendInvoicePage />
    </Allowed>
  );
}

export function ViewOrderRoute() {
  return <OrderDetailPage user={useStaffUser()} />;
}

export function AdminNotFoundRoute() {
  return <NotFoundPage homePath={paths.dashboard} />;
}
