// Who may be sent an order's approved document. Upload (modules/documents) and Resend (modules/mail) both deliver
// it, so the rule lives here, where both may import it, instead of in one of them.
import type { ProcessStatus } from '@eta/contracts';
import { AppError } from '../errors.js';

/**
 * Who may be sent the approved document: a paid order that is not Deleted (an Admin restores it first) nor
 * refunded for good (Refund Completed), nor erased by retention. The same rule guards the upload and Resend.
 */
export function assertMayDeliver(order: {
  order_id: string;
  process_status: string;
  payment_status: string;
  erased_at: Date | null;
}): void {
  const status = order.process_status as ProcessStatus;
  // Retention (issue 24): the customer's address and the document are gone; nothing can be delivered any more.
  if (order.erased_at) {
    throw new AppError(
      'ORDER_ERASED',
      `Order ${order.order_id}'s personal data was erased; nothing is delivered for it.`,
    );
  }
  if (order.payment_status !== 'Success') {
    throw new AppError('NOT_PAID', `Order ${order.order_id} is not paid (payment ${order.payment_status}).`);
  }
  if (status === 'Deleted') {
    throw new AppError('ORDER_DELETED', `Order ${order.order_id} is deleted; an Admin must restore it first.`);
  }
  if (status === 'Refund Completed') {
    throw new AppError(
      'ORDER_CLOSED',
      `Order ${order.order_id} is refunded (Refund Completed); nothing is delivered for it.`,
    );
  }
}
