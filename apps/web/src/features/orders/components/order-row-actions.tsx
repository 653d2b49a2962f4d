// The Action cell: View (greyed, with a tooltip naming the holder, when someone is assigned) and Delete, an
// icon button named 'Delete' with a tooltip, so that the column stays narrow. View carries the list it was
// opened from (lib/order-links), so the detail page can go back to it or on to the next order.
import { Link as RouterLink } from 'react-router';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import type { OrderListRow } from '@eta/contracts';
import { orderDetailPath, type OrderLinkState } from '../../../lib/order-links';

interface OrderRowActionsProps {
  row: OrderListRow;
  /** The list page this row is on. */
  linkState: OrderLinkState;
  canDelete: boolean;
  onDelete: (row: OrderListRow) => void;
}

export function OrderRowActions({ row, linkState, canDelete, onDelete }: OrderRowActionsProps) {
  const holder = row.assign_to.trim();
  const viewButton = (
    <Button
      component={RouterLink}
      to={orderDetailPath(row.order_id)}
      state={linkState}
      size="small"
      variant="contained"
      color={holder ? 'inherit' : 'primary'}
      disableElevation
      data-assigned={holder ? 'true' : undefined}
      sx={[{ minWidth: 0, px: 1.25 }, holder ? { color: 'text.secondary', bgcolor: 'grey.300' } : {}]}
    >
      View
    </Button>
  );

  return (
    <Stack direction="row" alignItems="center" gap={0.5}>
      {holder ? (
        <Tooltip title={`Assigned to ${holder}`} describeChild>
          {viewButton}
        </Tooltip>
      ) : (
        viewButton
      )}
      {canDelete ? (
        <Tooltip title="Delete">
          <IconButton size="small" color="error" aria-label="Delete" onClick={() => onDelete(row)}>
            <DeleteOutlineIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      ) : null}
    </Stack>
  );
}
