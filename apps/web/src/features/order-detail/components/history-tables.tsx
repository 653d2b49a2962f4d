// The order's Email History (mails of the outbox, shown only when there are any), uploaded documents and
// Download History (times in America/New_York, spec §9). Each table scrolls sideways inside its own box; Email
// History puts what explains a failure (state, sent, last error, provider message id) first and lets those cells
// wrap, so they fit beside the side menu at 1280 px (issue 22).
import type { ReactNode } from 'react';
import type { SxProps, Theme } from '@mui/material/styles';
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
import { SoftBreaks } from '../../../components/soft-breaks';
import { TimeText } from '../../../components/time-text';
import { describeTime } from '../../../lib/format';
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
  /** A column's cells styled otherwise than one line (by heading). */
  columnSx?: Readonly<Record<string, SxProps<Theme>>>;
}

const ONE_LINE: SxProps<Theme> = { whiteSpace: 'nowrap' };

function SimpleTable<T>({ label, headings, rows, rowKey, cells, columnSx = {} }: SimpleTableProps<T>) {
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
                  <TableCell key={headings[column]} sx={columnSx[headings[column]!] ?? ONE_LINE}>
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

/**
 * What a person checks first (what, to whom, did it go, when, and if not why) comes before what needs a sideways
 * scroll: at 1280 px everything up to the provider message id is in view.
 */
const MAIL_HEADINGS = [
  'Content',
  'Kind',
  'To',
  'State',
  'Sent',
  'Last error',
  'Provider message id',
  'Provider',
  'Attempts',
  'Queued',
  'Subject',
];

/** Email History's cells that may take more lines: a time under its date, words of an error, an id anywhere. */
const MAIL_COLUMN_SX: Record<string, SxProps<Theme>> = {
  // An address breaks after its '@' and dots (SoftBreaks); within a part only when it is wider than the column.
  To: { overflowWrap: 'break-word', minWidth: 120 },
  State: { minWidth: 96 },
  Sent: { minWidth: 96 },
  'Last error': { overflowWrap: 'break-word', minWidth: 160, maxWidth: 260 },
  'Provider message id': { overflowWrap: 'anywhere', minWidth: 110, maxWidth: 180 },
};

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
  const retry = mail.state === 'queued' && mail.attempts > 0 ? mail.next_attempt_at : null;
  return (
    <>
      <Box component="span" sx={{ color: STATE_COLOURS[mail.state] ?? 'text.primary', fontWeight: 600 }}>
        {mail.state}
      </Box>
      {retry ? (
        <Box component="span" sx={{ display: 'block', color: 'text.secondary', fontSize: '0.75rem' }}>
          next try <TimeText value={retry} />
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
      columnSx={MAIL_COLUMN_SX}
      rows={mails}
      rowKey={(mail) => mail.id}
      cells={(mail) => [
        <Button
          key="view"
          size="small"
          aria-label={`View the ${kindLabel(mail.kind).toLowerCase()} mail to ${mail.to} queued ${describeTime(mail.create_ts, 'utc')?.text ?? ''}`}
          onClick={() => onView(mail.id)}
        >
          View
        </Button>,
        kindLabel(mail.kind),
        <SoftBreaks key="to" text={mail.to} />,
        <MailState key="state" mail={mail} />,
        <TimeText key="sent" value={mail.sent_at} />,
        mail.last_error ?? '',
        mail.provider_message_id ?? '',
        mail.provider,
        mail.attempts,
        <TimeText key="queued" value={mail.create_ts} />,
        mail.subject,
      ]}
    />
  );
}

const DOCUMENT_HEADINGS = [
  'File',
  'Type',
  'Size',
  'Application no.',
  'Valid until',
  'Mail provider',
  'Uploaded by',
  'Date & Time',
];

/** Whether the desk matched it to the traveller (issue 35): nothing for documents from before it read them. */
const matchNote = (doc: UploadedDocument) =>
  doc.sent_anyway ? ` (sent unmatched: ${doc.sent_anyway})` : doc.matched ? ' ✓ matched' : '';

export function UploadedDocumentsTable({ documents }: { documents: readonly UploadedDocument[] }) {
  return (
    <SimpleTable
      label="Uploaded documents"
      headings={DOCUMENT_HEADINGS}
      rows={documents}
      rowKey={(doc) => doc.id}
      cells={(doc) => [
        `${doc.file1}${matchNote(doc)}`,
        doc.content_type,
        formatSize(doc.size_bytes),
        doc.application_number ?? '',
        doc.expires_on ?? '',
        doc.mail_service_provider ?? '',
        doc.uploaded_by ?? '',
        <TimeText key="at" value={doc.create_ts} />,
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
        <TimeText key="at" value={download.create_ts} format="eastern" />,
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
