// Upload Document (spec §2): the e-mail the approved document goes to (editable), the order id (read-only)
// and the file. Uploading and sending are built with document delivery (the next issue); until then the
// block shows what it will hold, says so, and sends nothing. Documents already stored are listed.
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import type { OrderDetails } from '@eta/contracts';
import { UploadedDocumentsTable } from './history-tables';

export function UploadDocumentSection({ order }: { order: OrderDetails }) {
  const [email, setEmail] = useState(typeof order.email === 'string' ? order.email : '');
  return (
    <Stack gap={2}>
      {order.uploadDoc.length > 0 ? <UploadedDocumentsTable documents={order.uploadDoc} /> : null}
      <Stack direction={{ xs: 'column', md: 'row' }} gap={2}>
        <TextField
          label="Email"
          type="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          fullWidth
          size="small"
        />
        <TextField
          label="Order ID"
          value={order.order_id ?? ''}
          fullWidth
          size="small"
          slotProps={{ input: { readOnly: true } }}
        />
      </Stack>
      <Stack direction="row" flexWrap="wrap" gap={1} alignItems="center">
        <Button variant="outlined" startIcon={<UploadFileIcon />} disabled>
          Choose file
        </Button>
        <Button variant="contained" disabled>
          Upload
        </Button>
      </Stack>
      <Alert severity="info">
        Uploading the approved document (PDF or image) and e-mailing it is coming with document delivery.
      </Alert>
    </Stack>
  );
}
