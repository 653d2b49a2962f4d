// The ChargeBack queue's Days left: how the order's dispute stands against its evidence due date. A list row
// carries the dispute's gateway status, not its outcome, so a decided or closed dispute is known by its status
// (Stripe's and PayPal's words) and never shows as overdue.
import type { OrderListRow } from '@eta/contracts';
import { EvidenceDueChip } from '../../../components/evidence-due-chip';

const OUTCOME_OF_STATUS: Record<string, 'won' | 'lost' | 'closed'> = {
  won: 'won',
  lost: 'lost',
  warning_closed: 'closed',
  charge_refunded: 'closed',
  prevented: 'closed',
  resolved: 'closed',
};

export function DisputeDueCell({ row }: { row: OrderListRow }) {
  const { dispute } = row;
  if (!dispute) return null;
  const outcome = OUTCOME_OF_STATUS[dispute.status.toLowerCase()] ?? null;
  return <EvidenceDueChip dispute={{ ...dispute, outcome }} />;
}
