// /admin: the dashboard's tiles, a lazy chunk of their own. The urgency window comes with the queue settings.
import { DashboardPage } from '../../features/dashboard/components/dashboard-page';
import { useFolderCounts } from '../../features/folder-counts/hooks/use-folder-counts';
import { useGetQueueSettingsQuery } from '../../features/orders/api/queue-settings-api';
import { useStaffUser } from './staff-access';

export function DashboardRoute() {
  const user = useStaffUser();
  const settings = useGetQueueSettingsQuery();
  return (
    <DashboardPage
      counts={useFolderCounts(user.name)}
      role={user.type}
      urgentHours={settings.data?.urgentTravelHours}
    />
  );
}
