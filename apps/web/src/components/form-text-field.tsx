// A MUI text field bound to react-hook-form, showing the field's validation message under it.
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { useController, type Control, type FieldValues, type Path, type UseControllerProps } from 'react-hook-form';

type FormTextFieldProps<T extends FieldValues> = Omit<
  TextFieldProps,
  'name' | 'value' | 'onChange' | 'onBlur' | 'error'
> & {
  name: Path<T>;
  control: Control<T>;
  rules?: UseControllerProps<T>['rules'];
};

export function FormTextField<T extends FieldValues>({
  name,
  control,
  rules,
  helperText,
  ...props
}: FormTextFieldProps<T>) {
  const {
    field: { ref, ...field },
    fieldState: { error },
  } = useController({ name, control, rules });
  return (
    <TextField
      {...props}
      {...field}
      id={props.id ?? name}
      inputRef={ref}
      error={Boolean(error)}
      helperText={error?.message ?? helperText}
    />
  );
}
