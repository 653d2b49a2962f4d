// An order's detail page (its forms, dialogs and history tables), a lazy chunk of its own.
import { OrderDetailPage } from '../../features/order-detail/components/order-detail-page';
import { useStaffUser } from './staff-access';

export function ViewOrderRoute() {
  return <OrderDetailPage user={useStaffUser()} />;
}
