// "Changed underneath" (issue 23): someone else changed the order this page shows (the live desk heard a newer
// version), or added to it what the page does not show yet (a comment, a mail, a customer's download: these leave the
// version as it is, so the page looks for their rows instead), so the page says so and offers a reload. It stays
// until the reload brings the change; it is not a toast that could go unseen. The page is not reloaded behind the
// person's back: a reload re-reads the order's personal data, which is recorded as a read.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import type { OrderAdditionKind, OrderChangedEvent, OrderDetails, ProcessStatus } from '@eta/contracts';
import { STATUS_LABELS } from '@eta/contracts/domain';
import type { SessionUser } from '../../../lib/auth/session';
import { useOrderAdditions, useOrderChange } from '../../../lib/live-desk/use-live-order';

function isOwnChange(change: OrderChangedEvent, user: SessionUser): boolean {
  if (change.byStaffId === null) return false;
  return user.id !== undefined ? change.byStaffId === user.id : change.byName === user.name;
}

/** "Priya moved this order to Completed." or "Priya changed this order." (no name: a payment, a webhook). */
function describeChange(change: OrderChangedEvent, shownStatus: string): string {
  const isMove = change.status !== shownStatus;
  const status = STATUS_LABELS[change.status as ProcessStatus] ?? change.status;
  if (!change.byName) return isMove ? `This order was moved to ${status}.` : 'This order was changed.';
  return isMove ? `${change.byName} moved this order to ${status}.` : `${change.byName} changed this order.`;
}

/** The rows of the page an addition of each kind joins. */
const SHOWN_ROWS: Record<OrderAdditionKind, (order: OrderDetails) => readonly { id: number }[]> = {
  comment: (order) => order.remark,
  mail: (order) => order.mailHistory,
  download: (order) => order.downloadHistory,
};

const isShown = (order: OrderDetails, change: OrderChangedEvent): boolean =>
  change.added === undefined || SHOWN_ROWS[change.added.kind](order).some((row) => row.id === change.added!.id);

/** "Priya added a comment.", "Priya sent 2 mails to the customer.", "The customer downloaded the approved document." */
function describeAddition(kind: OrderAdditionKind, byName: string | null, count: number): string {
  const many = count > 1;
  switch (kind) {
    case 'comment':
      if (!byName) return many ? `${count} comments were added.` : 'A comment was added.';
      return `${byName} added ${many ? `${count} comments` : 'a comment'}.`;
    case 'mail':
      if (!byName) return many ? `${count} mails were sent to the customer.` : 'A mail was sent to the customer.';
      return `${byName} sent ${many ? `${count} mails` : 'a mail'} to the customer.`;
    case 'download':
      return `The customer downloaded the approved document${many ? ` ${count} times` : ''}.`;
  }
}

/** One sentence per person and kind, in the order they were first heard. */
function describeAdditions(additions: readonly OrderChangedEvent[]): string[] {
  const groups = new Map<string, { kind: OrderAdditionKind; byName: string | null; count: number }>();
  for (const change of additions) {
    const kind = change.added!.kind;
    const key = `${kind}\u0000${change.byName ?? ''}`;
    const group = groups.get(key);
    if (group) group.count += 1;
    else groups.set(key, { kind, byName: change.byName, count: 1 });
  }
  return [...groups.values()].map((g) => describeAddition(g.kind, g.byName, g.count));
}

interface OrderChangedNoticeProps {
  order: OrderDetails;
  user: SessionUser;
  onReload: () => void;
}

export function OrderChangedNotice({ order, user, onReload }: OrderChangedNoticeProps) {
  const orderId = String(order.order_id);
  const change = useOrderChange(orderId);
  const additions = useOrderAdditions(orderId);
  const newer = change && change.version > order.version && !isOwnChange(change, user) ? change : undefined;
  const unseen = additions.filter((added) => !isOwnChange(added, user) && !isShown(order, added));
  if (!newer && unseen.length === 0) return null;
  const sentences = [
    ...(newer ? [describeChange(newer, String(order.process_status))] : []),
    ...describeAdditions(unseen),
  ];
  const changes = (newer ? 1 : 0) + unseen.length;
  return (
    <Alert
      severity="warning"
      sx={{ mb: 1 }}
      action={
        <Button color="inherit" size="small" onClick={onReload}>
          Reload
        </Button>
      }
    >
      {sentences.join(' ')} Reload to see {changes === 1 ? 'the change' : 'the changes'}.
    </Alert>
  );
}
