// The Action cell: View (greyed, with a tooltip naming the holder, when someone is assigned) and Delete.
import { Link as RouterLink } from 'react-router';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import type { OrderListRow } from '@eta/contracts';
import { paths } from '../../../config/paths';

const COMPACT = { minWidth: 0, px: 1 } as const;

interface OrderRowActionsProps {
  row: OrderListRow;
  canDelete: boolean;
  onDelete: (row: OrderListRow) => void;
}

export function OrderRowActions({ row, canDelete, onDelete }: OrderRowActionsProps) {
  const holder = row.assign_to.trim();
  const viewButton = (
    <Button
      component={RouterLink}
      to={paths.viewOrder.build(row.order_id)}
      size="small"
      variant="contained"
      color={holder ? 'inherit' : 'primary'}
      data-assigned={holder ? 'true' : undefined}
      sx={holder ? { ...COMPACT, color: 'text.secondary', bgcolor: 'grey.300' } : COMPACT}
    >
      View
    </Button>
  );

  return (
    <Stack direction="row" gap={1}>
      {holder ? (
        <Tooltip title={`Assigned to ${holder}`} describeChild>
          {viewButton}
        </Tooltip>
      ) : (
        viewButton
      )}
      {canDelete ? (
        <Button size="small" variant="outlined" color="error" sx={COMPACT} onClick={() => onDelete(row)}>
          Delete
        </Button>
      ) : null}
    </Stack>
  );
}
