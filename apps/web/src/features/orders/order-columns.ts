// Which columns each queue's table shows (spec §2 "Shared order table", "Future Order"; issue 21: the ChargeBack
// queue's dispute columns; issue 23: who else is on each order; issue 35: urgency, time in status, lateness).
import type { ComponentType } from 'react';
import type { OrderListRow, QueueName } from '@eta/contracts';
import {
  describeTime,
  formatAmount,
  formatFullName,
  formatGatewayCode,
  formatTelephone,
  formatUtcDate,
} from '../../lib/format';
import { describeTimeInStatus } from '../../lib/order-timing';
import { DisputeDueCell } from './components/dispute-due-cell';
import { OrderIdCell } from './components/order-id-cell';
import { OrderStatusCell } from './components/order-status-cell';
import { OrderTimeCell } from './components/order-time-cell';

export interface OrderColumn {
  key: string;
  header: string;
  render: (row: OrderListRow) => string;
  /**
   * How a value and its header may break so that the table fits beside the side menu: 'none' keeps ids, phone
   * numbers and times on one line; 'email' breaks after the '@' first and anywhere only when a part is still
   * too long.
   */
  wrap: 'normal' | 'none' | 'email';
  /** A cell that is more than text (a chip); `render` then gives its text. */
  Cell?: ComponentType<{ row: OrderListRow }>;
}

const column = (
  key: string,
  header: string,
  render: OrderColumn['render'],
  wrap: OrderColumn['wrap'] = 'normal',
): OrderColumn => ({ key, header, render, wrap });

// The id, with the avatars of anyone else on the order (the live desk) and an urgent order's travel.
const orderId = (header = 'Order Id'): OrderColumn => ({
  ...column('orderId', header, (row) => row.order_id, 'none'),
  Cell: OrderIdCell,
});
const name = column('name', 'Name', (row) => formatFullName(row.passport_first_name, row.passport_surname));
const email = column('email', 'Email', (row) => row.email, 'email');
const telephone = column(
  'telephone',
  'Telephone',
  (row) => formatTelephone(row.country_code, row.telephone_number),
  'none',
);
// The spec's UTC DD/MM/YYYY hh:mm:ss, labelled UTC, with the US Eastern time on hover (issue 22).
const dateTime = (wrap: OrderColumn['wrap'] = 'none'): OrderColumn => ({
  ...column('dateTime', 'Date & Time', (row) => describeTime(row.create_ts, 'utc')?.text ?? '', wrap),
  Cell: OrderTimeCell,
});
const refundDate = column('refundDate', 'Refund Date', (row) => formatUtcDate(row.refund_date), 'none');
// A bare DD/MM/YYYY never breaks anyway; 'normal' lets the long header take two lines in the wide Future table.
const processingDate = column('processingDate', 'Processing Date', (row) => formatUtcDate(row.processing_date));
const processMonth = column('processMonth', 'Process Month', (row) => row.process_month ?? '');
// An open order's time in its status ("2 h in Pending") and "Late" past its target time.
const status: OrderColumn = {
  ...column('status', 'Status', (row) => describeTimeInStatus(row.process_status, row.status_since)),
  Cell: OrderStatusCell,
};
// The ChargeBack queue's dispute (the order's newest); blank for an order moved there by hand.
const disputeReason = column('reason', 'Reason', (row) => (row.dispute ? formatGatewayCode(row.dispute.reason) : ''));
const disputeAmount = column(
  'amount',
  'Amount',
  (row) => (row.dispute ? formatAmount(row.dispute.amount_cents, row.dispute.currency) : ''),
  'none',
);
// A bare date never breaks; its header may take two lines.
const evidenceDue = column('evidenceDue', 'Evidence due', (row) => formatUtcDate(row.dispute?.evidence_due_by));
const daysLeft: OrderColumn = { ...column('daysLeft', 'Days left', () => ''), Cell: DisputeDueCell };

/** The data columns of a queue; the Action column always follows them. */
export function columnsFor(queue: QueueName): OrderColumn[] {
  switch (queue) {
    case 'refundOrder':
      return [orderId(), email, telephone, dateTime(), refundDate, status];
    case 'futureOrder':
      // Two more columns than the other queues: the creation time may go under its date to make room.
      return [orderId('Order ID'), name, email, telephone, dateTime('normal'), processingDate, processMonth, status];
    case 'chargeBack':
      // The dispute's four columns take the places of Telephone and Status (always ChargeBack here), and the
      // order's time may go under its date, so that Days left and Action still fit beside the menu at 1280 px.
      return [orderId(), name, email, dateTime('normal'), disputeReason, disputeAmount, evidenceDue, daysLeft];
    case 'contactCustomer':
      return [orderId(), name, email, dateTime(), status];
    default:
      return [orderId(), name, email, telephone, dateTime(), status];
  }
}
