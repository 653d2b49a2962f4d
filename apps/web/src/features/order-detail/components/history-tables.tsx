// The order's Email History (mails of the outbox, shown only when there are any), uploaded documents and
// Download History (times in America/New_York, spec §9). Each table scrolls sideways inside its own box.
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { MailKind, OrderDetails } from '@eta/contracts';
import { TableMessageRow } from '../../../components/table-message-row';
import { formatEasternDateTime, formatUtcDateTime } from '../../../lib/format';
import { formatSize } from '../delivery-rules';

type MailEntry = OrderDetails['mailHistory'][number];
type DownloadEntry = OrderDetails['downloadHistory'][number];
type UploadedDocument = OrderDetails['uploadDoc'][number];

interface SimpleTableProps<T> {
  label: string;
  headings: readonly string[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  cells: (row: T, index: number) => ReactNode[];
}

function SimpleTable<T>({ label, headings, rows, rowKey, cells }: SimpleTableProps<T>) {
  return (
    <TableContainer sx={{ overflowX: 'auto', containerType: 'inline-size', border: 1, borderColor: 'divider' }}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {headings.map((heading) => (
              <TableCell key={heading} sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                {heading}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.length === 0 ? (
            <TableMessageRow colSpan={headings.length} py={2}>
              No data available in table
            </TableMessageRow>
          ) : (
            rows.map((row, index) => (
              <TableRow key={rowKey(row)}>
                {cells(row, index).map((cell, column) => (
                  <TableCell key={headings[column]} sx={{ whiteSpace: 'nowrap' }}>
                    {cell}
                  </TableCell>
                ))}
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** What a person checks first (who, how, did it go, when) comes before what needs a sideways scroll. */
const MAIL_HEADINGS = [
  'Content',
  'Kind',
  'To',
  'Provider',
  'State',
  'Attempts',
  'Queued (UTC)',
  'Sent (UTC)',
  'Provider message id',
  'Last error',
  'Subject',
];

/** Every kind of mail in words; typed against the contracts' MAIL_KINDS, so a new kind fails the build here. */
const MAIL_KIND_LABELS: Record<MailKind, string> = {
  approval: 'Approval',
  invoice: 'Invoice',
  resend: 'Resend',
  refund: 'Refund',
  confirmation: 'Order confirmation',
};

const kindLabel = (kind: string): string => MAIL_KIND_LABELS[kind as MailKind] ?? kind;

const STATE_COLOURS: Record<string, string> = { sent: 'success.main', failed: 'error.main', queued: 'warning.dark' };

/** The state, and for a mail waiting for another attempt, when that is. */
function MailState({ mail }: { mail: MailEntry }) {
  const retry = mail.state === 'queued' && mail.attempts > 0 ? formatUtcDateTime(mail.next_attempt_at) : '';
  return (
    <>
      <Box component="span" sx={{ color: STATE_COLOURS[mail.state] ?? 'text.primary', fontWeight: 600 }}>
        {mail.state}
      </Box>
      {retry ? (
        <Box component="span" sx={{ display: 'block', color: 'text.secondary', fontSize: '0.75rem' }}>
          next try {retry}
        </Box>
      ) : null}
    </>
  );
}

interface EmailHistoryTableProps {
  mails: readonly MailEntry[];
  /** Opens View Email Content on that mail. */
  onView: (mailId: number) => void;
}

export function EmailHistoryTable({ mails, onView }: EmailHistoryTableProps) {
  return (
    <SimpleTable
      label="Email History"
      headings={MAIL_HEADINGS}
      rows={mails}
      rowKey={(mail) => mail.id}
      cells={(mail) => [
        <Button
          key="view"
          size="small"
          aria-label={`View the ${kindLabel(mail.kind).toLowerCase()} mail to ${mail.to} queued ${formatUtcDateTime(mail.create_ts)}`}
          onClick={() => onView(mail.id)}
        >
          View
        </Button>,
        kindLabel(mail.kind),
        mail.to,
        mail.provider,
        <MailState key="state" mail={mail} />,
        mail.attempts,
        formatUtcDateTime(mail.create_ts),
        formatUtcDateTime(mail.sent_at),
        mail.provider_message_id ?? '',
        mail.last_error ?? '',
        mail.subject,
      ]}
    />
  );
}

const DOCUMENT_HEADINGS = ['File', 'Type', 'Size', 'Mail provider', 'Uploaded by', 'Date & Time (UTC)'];

export function UploadedDocumentsTable({ documents }: { documents: readonly UploadedDocument[] }) {
  return (
    <SimpleTable
      label="Uploaded documents"
      headings={DOCUMENT_HEADINGS}
      rows={documents}
      rowKey={(doc) => doc.id}
      cells={(doc) => [
        doc.file1,
        doc.content_type,
        formatSize(doc.size_bytes),
        doc.mail_service_provider ?? '',
        doc.uploaded_by ?? '',
        formatUtcDateTime(doc.create_ts),
      ]}
    />
  );
}

const DOWNLOAD_HEADINGS = [
  '#',
  'Date & Time (EST)',
  'Device IP Address',
  'Device',
  'Device Type',
  'Browser',
  'OS',
  'Device Location',
  'Time zone',
];

export function DownloadHistoryTable({ downloads }: { downloads: readonly DownloadEntry[] }) {
  return (
    <SimpleTable
      label="Download History"
      headings={DOWNLOAD_HEADINGS}
      rows={downloads}
      rowKey={(download) => download.id}
      cells={(download, index) => [
        index + 1,
        formatEasternDateTime(download.create_ts),
        download.ip,
        download.device ?? '',
        download.device_type ?? '',
        download.browser ?? '',
        download.os ?? '',
        download.location ?? '',
        download.timezone ?? '',
      ]}
    />
  );
}
