// The queue header's "Urgent first" switch (issue 35): the member's choice for this queue, kept on the server.
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';

interface UrgentFirstSwitchProps {
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
}

export function UrgentFirstSwitch({ checked, disabled, onChange }: UrgentFirstSwitchProps) {
  return (
    <FormControlLabel
      label="Urgent first"
      sx={{ mr: 0.5, whiteSpace: 'nowrap' }}
      control={<Switch checked={checked} disabled={disabled} onChange={(event) => onChange(event.target.checked)} />}
    />
  );
}
