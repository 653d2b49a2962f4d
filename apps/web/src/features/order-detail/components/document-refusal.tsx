// The desk read the approval and could not match it to the order (issue 35): what the document names beside the
// order's traveller, so the member sees the mix-up at a glance, and, for a document the reader could not read or
// one the member knows is right, "Send it anyway" with a reason (audited with what was read).
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import type { DocumentRefusal } from '@eta/contracts';
import { MIN_SEND_ANYWAY_REASON } from '../delivery-rules';

interface DocumentRefusalPanelProps {
  message: string;
  refusal: DocumentRefusal | undefined;
  busy: boolean;
  onSendAnyway: (reason: string) => void;
  onDismiss: () => void;
}

const shown = (value: string | null | undefined, fallback: string) => value?.trim() || fallback;

export function DocumentRefusalPanel({ message, refusal, busy, onSendAnyway, onDismiss }: DocumentRefusalPanelProps) {
  const [reason, setReason] = useState('');
  const readable = refusal?.reading.readable ?? false;
  return (
    <Alert severity="error" role="alert" aria-label="The document was not sent">
      <AlertTitle>
        {readable ? 'This looks like another traveller’s approval' : 'The desk could not read this document'}
      </AlertTitle>
      <Stack gap={1.5}>
        <span>{message}</span>
        {refusal && readable ? (
          <Table size="small" aria-label="Who the document names">
            <TableHead>
              <TableRow>
                <TableCell />
                <TableCell>Surname</TableCell>
                <TableCell>Passport number</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              <TableRow>
                <TableCell component="th" scope="row">
                  This document
                </TableCell>
                <TableCell>{shown(refusal.reading.named.surname, 'not found')}</TableCell>
                <TableCell>{shown(refusal.reading.named.passportNumber, 'not found')}</TableCell>
              </TableRow>
              <TableRow>
                <TableCell component="th" scope="row">
                  This order
                </TableCell>
                <TableCell>{shown(refusal.order.surname, '—')}</TableCell>
                <TableCell>{shown(refusal.order.passportNumber, '—')}</TableCell>
              </TableRow>
            </TableBody>
          </Table>
        ) : null}
        <TextField
          label="Reason to send it anyway"
          size="small"
          multiline
          minRows={2}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          helperText={`Only after looking at it yourself. At least ${MIN_SEND_ANYWAY_REASON} characters; kept on the order's activity.`}
          slotProps={{ htmlInput: { maxLength: 500 } }}
          sx={{ bgcolor: 'background.paper' }}
        />
        <Stack direction="row" gap={1} flexWrap="wrap">
          <Button
            variant="contained"
            color="error"
            disabled={busy || reason.trim().length < MIN_SEND_ANYWAY_REASON}
            onClick={() => onSendAnyway(reason.trim())}
          >
            Send it anyway
          </Button>
          <Button variant="outlined" disabled={busy} onClick={onDismiss}>
            Choose another file
          </Button>
        </Stack>
      </Stack>
    </Alert>
  );
}
