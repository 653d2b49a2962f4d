// The buttons that act on the selected orders (Assign to me, Move to New orders, Refunded it, Delete Order).
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useSelectedCount, type RowSelection } from '../hooks/use-row-selection';
import { ORDER_ACTIONS, type OrderActionKind } from '../order-actions';

interface BulkActionBarProps {
  actions: readonly OrderActionKind[];
  selection: RowSelection;
  onAction: (kind: OrderActionKind) => void;
}

export function BulkActionBar({ actions, selection, onAction }: BulkActionBarProps) {
  const selectedCount = useSelectedCount(selection);
  if (actions.length === 0) return null;
  return (
    <Stack direction="row" alignItems="center" gap={1} flexWrap="wrap">
      <Typography variant="body2" color="text.secondary" aria-live="polite">
        {selectedCount} selected
      </Typography>
      {actions.map((kind) => (
        <Button
          key={kind}
          size="small"
          variant="contained"
          color={kind === 'delete' ? 'error' : 'primary'}
          disabled={selectedCount === 0}
          onClick={() => onAction(kind)}
        >
          {ORDER_ACTIONS[kind].label}
        </Button>
      ))}
    </Stack>
  );
}
