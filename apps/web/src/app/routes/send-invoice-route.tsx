// Send Invoice, a lazy chunk of its own.
import { SendInvoicePage } from '../../features/invoices/components/send-invoice-page';
import { Allowed } from './staff-access';

export function SendInvoiceRoute() {
  return (
    <Allowed capability="workOrders" title="Send Invoice">
      <SendInvoicePage />
    </Allowed>
  );
}
