// /admin: the dashboard's tiles, a lazy chunk of their own.
import { DashboardPage } from '../../features/dashboard/components/dashboard-page';
import { useFolderCounts } from '../../features/folder-counts/hooks/use-folder-counts';
import { useStaffUser } from './staff-access';

export function DashboardRoute() {
  const user = useStaffUser();
  return <DashboardPage counts={useFolderCounts(user.name)} />;
}
