// The Move-to buttons of spec §4 for this order and this person (order-detail-actions.ts). Each asks for
// confirmation, then sends the version the page shows.
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { MoveOption } from '../order-detail-actions';

interface MoveToButtonsProps {
  options: readonly MoveOption[];
  disabled: boolean;
  onMove: (option: MoveOption) => void;
}

export function MoveToButtons({ options, disabled, onMove }: MoveToButtonsProps) {
  if (options.length === 0) {
    return (
      <Typography color="text.secondary" variant="body2">
        This order cannot be moved from its current status.
      </Typography>
    );
  }
  return (
    <Stack direction="row" flexWrap="wrap" gap={1} role="group" aria-label="Move to">
      {options.map((option) => (
        <Button
          key={option.status}
          variant="outlined"
          color={option.status === 'Deleted' ? 'error' : 'primary'}
          disabled={disabled}
          onClick={() => onMove(option)}
        >
          {option.label}
        </Button>
      ))}
    </Stack>
  );
}
