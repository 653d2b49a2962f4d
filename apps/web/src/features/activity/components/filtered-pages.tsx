// What the Activity page's two views (changes and reads) share: a filter form applied with Apply and cleared with
// Clear, the member picker, the UTC date range, and Older / Newer pages over the server's keyset cursor.
import { useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useActivityPeopleQuery } from '../api/activity-api';

/** A filter form's text state, and the props that bind one of its fields to a TextField. */
export function useFilterForm<T extends { [K in keyof T]: string }>(initial: T | (() => T)) {
  const [form, setForm] = useState<T>(initial);
  const field = (name: keyof T) => ({
    value: form[name],
    onChange: (event: { target: { value: string } }) => setForm((f) => ({ ...f, [name]: event.target.value })),
  });
  return { form, setForm, field };
}

/** Pages over the server's cursor: Older goes on to the page's `next`, Newer back, a new filter starts again. */
export function useCursorPages() {
  // Cursors of the pages before this one (newest page: none); the last entry is this page's cursor.
  const [cursors, setCursors] = useState<string[]>([]);
  return {
    cursor: cursors[cursors.length - 1],
    hasNewer: cursors.length > 0,
    restart: () => setCursors([]),
    newer: () => setCursors((c) => c.slice(0, -1)),
    older: (next: string) => setCursors((c) => [...c, next]),
  };
}

type FieldProps = { value: string; onChange: (event: { target: { value: string } }) => void };

export function FilterForm({
  label,
  onApply,
  onClear,
  children,
}: {
  label: string;
  onApply: () => void;
  onClear: () => void;
  children: ReactNode;
}) {
  return (
    <Paper sx={{ p: 2, mb: 2 }}>
      <Box
        component="form"
        aria-label={label}
        onSubmit={(event) => {
          event.preventDefault();
          onApply();
        }}
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(6, auto)' },
        }}
      >
        {children}
        <Stack direction="row" gap={1}>
          <Button type="submit" variant="contained">
            Apply
          </Button>
          <Button onClick={onClear}>Clear</Button>
        </Stack>
      </Box>
    </Paper>
  );
}

/** Everyone, or one member (deleted members too: their records stay). */
export function MemberSelect({ label, ...field }: FieldProps & { label: string }) {
  const people = useActivityPeopleQuery();
  return (
    <TextField select size="small" label={label} sx={{ minWidth: 180 }} {...field}>
      <MenuItem value="">Everyone</MenuItem>
      {(people.data ?? []).map((p) => (
        <MenuItem key={p.id} value={String(p.id)}>
          {p.name}
          {p.active ? '' : ' (deleted)'}
        </MenuItem>
      ))}
    </TextField>
  );
}

export function DateRangeFields({ from, to }: { from: FieldProps; to: FieldProps }) {
  return (
    <>
      <TextField type="date" size="small" label="From" slotProps={{ inputLabel: { shrink: true } }} {...from} />
      <TextField type="date" size="small" label="To" slotProps={{ inputLabel: { shrink: true } }} {...to} />
    </>
  );
}

export function NewerOlderButtons({
  pages,
  next,
  busy,
}: {
  pages: ReturnType<typeof useCursorPages>;
  next: string | null | undefined;
  busy: boolean;
}) {
  return (
    <Stack direction="row" gap={1} justifyContent="flex-end" sx={{ p: 1 }}>
      <Button disabled={!pages.hasNewer || busy} onClick={pages.newer}>
        Newer
      </Button>
      <Button disabled={!next || busy} onClick={() => next && pages.older(next)}>
        Older
      </Button>
    </Stack>
  );
}
