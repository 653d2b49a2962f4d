// The target time of each processing type (issue 35), past which an open order is waiting too long: an Admin's form
// (hours, empty for none; sent in minutes), everyone else's one line ("Priority: 2 h · Standard: 24 h · Future: 24 h").
import { toast } from 'react-toastify';
import { useForm } from 'react-hook-form';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ProcessingTargets, ProcessingType } from '@eta/contracts';
import { TARGET_MINUTES_MAX } from '@eta/contracts/domain';
import { FormTextField } from '../../../components/form-text-field';
import { formatTargetMinutes } from '../../../lib/order-timing';
import { useSetProcessingTargetsMutation } from '../api/processing-targets-api';
import { useGetQueueSettingsQuery } from '../api/queue-settings-api';

/** The order a person reads them in: the fastest promise first. */
const TYPES = ['Priority', 'Standard', 'Future'] as const satisfies readonly ProcessingType[];
const TARGETS_SAVED = 'Target times saved.';
const HOURS_RULE = 'Between 1 minute and 90 days (2160 h); leave it empty for no target.';

type HoursForm = Record<ProcessingType, string>;

const toHours = (minutes: number | null): string =>
  minutes === null ? '' : String(Math.round((minutes / 60) * 100) / 100);
const toMinutes = (hours: string): number | null => (hours.trim() === '' ? null : Math.round(Number(hours) * 60));

function hoursRule(hours: string): true | string {
  if (hours.trim() === '') return true;
  const minutes = toMinutes(hours);
  return minutes !== null && Number.isFinite(minutes) && minutes >= 1 && minutes <= TARGET_MINUTES_MAX
    ? true
    : HOURS_RULE;
}

function targetsText(targets: ProcessingTargets): string {
  return TYPES.map((type) => `${type}: ${formatTargetMinutes(targets[type])}`).join(' · ');
}

function TargetTimesForm({ targets }: { targets: ProcessingTargets }) {
  const [save, { isLoading }] = useSetProcessingTargetsMutation();
  const { control, handleSubmit, formState } = useForm<HoursForm>({
    values: {
      Priority: toHours(targets.Priority),
      Standard: toHours(targets.Standard),
      Future: toHours(targets.Future),
    },
  });
  const submit = async (form: HoursForm) => {
    try {
      await save({
        Standard: toMinutes(form.Standard),
        Priority: toMinutes(form.Priority),
        Future: toMinutes(form.Future),
      }).unwrap();
      toast.success(TARGETS_SAVED);
    } catch {
      // The API layer showed the server's message; what was typed stays.
    }
  };
  return (
    <Stack
      component="form"
      noValidate
      aria-label="Target times"
      onSubmit={(event) => void handleSubmit(submit)(event)}
      direction={{ xs: 'column', sm: 'row' }}
      gap={2}
      alignItems={{ sm: 'flex-start' }}
      flexWrap="wrap"
    >
      {TYPES.map((type) => (
        <FormTextField
          key={type}
          control={control}
          name={type}
          id={`target-${type}`}
          label={`${type} (hours)`}
          size="small"
          slotProps={{ htmlInput: { inputMode: 'decimal' } }}
          sx={{ width: { sm: 160 } }}
          disabled={isLoading}
          rules={{ validate: hoursRule }}
        />
      ))}
      <Button type="submit" variant="contained" disabled={isLoading || !formState.isDirty}>
        Save
      </Button>
    </Stack>
  );
}

export function TargetTimes({ canEdit }: { canEdit: boolean }) {
  const settings = useGetQueueSettingsQuery();
  let body;
  if (settings.data) {
    body = canEdit ? (
      <TargetTimesForm targets={settings.data.targets} />
    ) : (
      <Typography>{targetsText(settings.data.targets)}</Typography>
    );
  } else if (settings.isError) {
    body = <Typography color="text.secondary">The target times could not be loaded.</Typography>;
  } else {
    body = <Typography color="text.secondary">Loading…</Typography>;
  }
  return (
    <Paper variant="outlined" component="section" aria-labelledby="target-times-heading" sx={{ p: 2, mb: 2 }}>
      <Typography id="target-times-heading" variant="subtitle1" component="h2" sx={{ mb: 1 }}>
        Target times
      </Typography>
      {canEdit ? (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          An open order waits too long once this long has passed since it was bought (for Future orders, since its
          processing date). Leave a type empty for no target.
        </Typography>
      ) : null}
      {body}
    </Paper>
  );
}
