// "Add Comment Below" (spec §2, §3 "Remark payload", §5): the remark box and the five flags, sent as 'Y' when
// ticked and '' otherwise. The server records the signed-in person as the author. The page is told while the
// person is writing a remark (the box has focus or unsent text), for the live desk's "editing remarks".
import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Stack from '@mui/material/Stack';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { AddRemarkBody } from '@eta/contracts';
import { REMARK_MAX_LENGTH } from '@eta/contracts/domain';
import { FormTextField } from '../../../components/form-text-field';
import { useAddRemarkMutation } from '../api/order-detail-api';
import { reportChange } from '../hooks/use-confirmed-action';

type Flag = 'whatsapp' | 'telephone' | 'statusRefund' | 'voided' | 'chargeBack';

const FLAGS: readonly { name: Flag; label: string }[] = [
  { name: 'whatsapp', label: 'WhatsApp' },
  { name: 'telephone', label: 'Telephone' },
  { name: 'statusRefund', label: 'Status Refund' },
  { name: 'voided', label: 'Voided' },
  { name: 'chargeBack', label: 'ChargeBack' },
];

type CommentValues = { remark: string } & Record<Flag, boolean>;

const EMPTY: CommentValues = {
  remark: '',
  whatsapp: false,
  telephone: false,
  statusRefund: false,
  voided: false,
  chargeBack: false,
};

export const REMARK_REQUIRED = 'Please enter your remark';
const REMARK_TOO_LONG = `Remark must be at most ${REMARK_MAX_LENGTH} characters.`;

const flag = (ticked: boolean): 'Y' | '' => (ticked ? 'Y' : '');

interface AddCommentFormProps {
  orderId: string;
  userName: string;
  onEditingChange?: (isEditing: boolean) => void;
}

export function AddCommentForm({ orderId, userName, onEditingChange }: AddCommentFormProps) {
  const [addRemark, { isLoading }] = useAddRemarkMutation();
  const { control, handleSubmit, reset } = useForm<CommentValues>({ defaultValues: EMPTY });
  const remark = useWatch({ control, name: 'remark' });
  const { length } = remark;
  const [hasFocus, setHasFocus] = useState(false);
  const isEditing = hasFocus || remark.trim() !== '';
  useEffect(() => onEditingChange?.(isEditing), [isEditing, onEditingChange]);

  const submit = async (values: CommentValues) => {
    const body: AddRemarkBody = {
      orderId,
      remark: values.remark,
      remarkerName: userName,
      whatsapp: flag(values.whatsapp),
      telephone: flag(values.telephone),
      statusRefund: flag(values.statusRefund),
      voided: flag(values.voided),
      chargeBack: flag(values.chargeBack),
    };
    if ((await reportChange(addRemark(body))) === 'done') reset(EMPTY);
  };

  return (
    <Stack component="form" noValidate gap={1.5} onSubmit={(event) => void handleSubmit(submit)(event)}>
      {/* Focus events bubble in React: the box's focus is seen here without taking over the field's own onBlur. */}
      <Box onFocus={() => setHasFocus(true)} onBlur={() => setHasFocus(false)}>
        <FormTextField
          control={control}
          name="remark"
          label="Comment"
          multiline
          minRows={3}
          fullWidth
          helperText={`${length} / ${REMARK_MAX_LENGTH} characters`}
          rules={{
            validate: (value) => String(value).trim() !== '' || REMARK_REQUIRED,
            maxLength: { value: REMARK_MAX_LENGTH, message: REMARK_TOO_LONG },
          }}
        />
      </Box>
      <FormGroup row aria-label="Comment flags">
        {FLAGS.map(({ name, label }) => (
          <Controller
            key={name}
            control={control}
            name={name}
            render={({ field }) => (
              <FormControlLabel
                label={label}
                control={
                  <Checkbox
                    name={field.name}
                    checked={field.value}
                    onChange={(event) => field.onChange(event.target.checked)}
                    onBlur={field.onBlur}
                    inputRef={field.ref}
                  />
                }
              />
            )}
          />
        ))}
      </FormGroup>
      <Button type="submit" variant="contained" disabled={isLoading} sx={{ alignSelf: 'flex-start' }}>
        Add Comment
      </Button>
    </Stack>
  );
}
