// "Viewed by" (issue 24, Admin and Manager): every read of this order's personal data on the record — who, when,
// what (the detail, a defence pack, the signature) and from where — newest first, ten at a time with Show more.
// A read is written within about a second after its answer, possibly by another server process than the one asked
// for this list (deploy/nginx.conf balances two), so only the page knows for sure that it is reading the order now:
// the reader's own opening leads the list until the server lists it (issue 33).
import { useState } from 'react';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { AccessRecordRow } from '@eta/contracts';
import { ACCESS_KIND_LABELS } from '@eta/contracts/domain';
import type { SessionUser } from '../../../lib/auth/session';
import { TableMessageRow } from '../../../components/table-message-row';
import { TimeText } from '../../../components/time-text';
import { useGetViewedByQuery } from '../api/access-records-api';
import { DetailSection } from './detail-section';

const HEADINGS = ['When', 'Who', 'What', 'From where'] as const;

const whatOf = (row: AccessRecordRow): string =>
  row.detail ? `${ACCESS_KIND_LABELS[row.kind]}: ${row.detail}` : ACCESS_KIND_LABELS[row.kind];

const whereOf = (row: AccessRecordRow): string => `${row.ip} (${row.browser} on ${row.os})`;

/**
 * How far the server's time of a read may sit before the page's (the answer's way back, and the two clocks apart)
 * for the read to still count as this opening.
 */
const OPENING_SLACK_MS = 60_000;

/** This page's opening of the order: when its detail was answered, and to whom. */
export interface CurrentOpening {
  at: number;
  reader: SessionUser;
}

/** Whether the server already lists the page's own opening (the reader's detail read, from about then on). */
const isListed = (rows: readonly AccessRecordRow[], { at, reader }: CurrentOpening): boolean =>
  rows.some(
    (row) =>
      row.kind === 'detail' &&
      (reader.id !== undefined ? row.staff_id === reader.id : row.staff_name === reader.name) &&
      Date.parse(row.at) >= at - OPENING_SLACK_MS,
  );

function OpeningRow({ opening }: { opening: CurrentOpening }) {
  return (
    <TableRow>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>
        <TimeText value={new Date(opening.at).toISOString()} />
      </TableCell>
      <TableCell>{opening.reader.name}</TableCell>
      <TableCell>{ACCESS_KIND_LABELS.detail}</TableCell>
      <TableCell>This browser, now (on the record within a second)</TableCell>
    </TableRow>
  );
}

interface PageProps {
  orderId: string;
  cursor: string | undefined;
  /** The newest page only: this page's opening, shown first while the server does not list it yet. */
  opening: CurrentOpening | undefined;
  isLast: boolean;
  onMore: (cursor: string) => void;
}

/** One page of reads as table rows; the last page ends with Show more while there are older reads. */
function ViewedByPage({ orderId, cursor, opening, isLast, onMore }: PageProps) {
  const page = useGetViewedByQuery({ orderId, ...(cursor ? { cursor } : {}) });
  if (page.isError) {
    return (
      <TableMessageRow colSpan={HEADINGS.length} py={2}>
        Who viewed this order could not be loaded.
      </TableMessageRow>
    );
  }
  if (!page.data) {
    return (
      <TableMessageRow colSpan={HEADINGS.length} py={2}>
        Loading…
      </TableMessageRow>
    );
  }
  const { rows, next } = page.data;
  return (
    <>
      {opening && !isListed(rows, opening) ? <OpeningRow opening={opening} /> : null}
      {rows.map((row) => (
        <TableRow key={row.id}>
          <TableCell sx={{ whiteSpace: 'nowrap' }}>
            <TimeText value={row.at} />
          </TableCell>
          <TableCell>{row.staff_name}</TableCell>
          <TableCell>{whatOf(row)}</TableCell>
          <TableCell sx={{ overflowWrap: 'anywhere' }}>{whereOf(row)}</TableCell>
        </TableRow>
      ))}
      {isLast && next ? (
        <TableRow>
          <TableCell colSpan={HEADINGS.length} sx={{ textAlign: 'center' }}>
            <Button size="small" onClick={() => onMore(next)}>
              Show more
            </Button>
          </TableCell>
        </TableRow>
      ) : null}
    </>
  );
}

interface ViewedBySectionProps {
  orderId: string;
  /** The page's own opening of the order (its detail answered), listed first until the server has it. */
  opening: CurrentOpening | undefined;
}

export function ViewedBySection({ orderId, opening }: ViewedBySectionProps) {
  // The cursors of the older pages shown, for this order (another order starts from its newest again).
  const [shown, setShown] = useState<{ orderId: string; cursors: string[] }>({ orderId, cursors: [] });
  const cursors = shown.orderId === orderId ? shown.cursors : [];
  const pages: (string | undefined)[] = [undefined, ...cursors];
  return (
    <DetailSection id="viewed-by" title="Viewed by">
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
        Every opening of this order&apos;s personal data, newest first.
      </Typography>
      <TableContainer sx={{ overflowX: 'auto', containerType: 'inline-size', border: 1, borderColor: 'divider' }}>
        <Table size="small" aria-label="Viewed by">
          <TableHead>
            <TableRow>
              {HEADINGS.map((heading) => (
                <TableCell key={heading} sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                  {heading}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {pages.map((cursor, index) => (
              <ViewedByPage
                key={cursor ?? 'newest'}
                orderId={orderId}
                cursor={cursor}
                opening={cursor ? undefined : opening}
                isLast={index === pages.length - 1}
                onMore={(next) => setShown({ orderId, cursors: [...cursors, next] })}
              />
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </DetailSection>
  );
}
