// Future Orders (month tiles, then a month's order table), a lazy chunk of its own.
import { FutureOrderPage } from '../../features/orders/components/future-order-page';
import { useStaffUser } from './staff-access';

export function FutureOrderRoute() {
  return <FutureOrderPage user={useStaffUser()} />;
}
